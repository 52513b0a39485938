// TEMPORARY stand-in for the project-identity function the shims engineer is adding to
// @kiro-learn/schema/node (packages/schema/src/node/project.ts). Replace the body with a
// call to it as soon as it lands: hooks and MCP server must agree on the namespace.
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { buildNamespace } from '@kiro-learn/schema';

/** The namespace of the project at `dir`, exactly as the hooks compute it. */
export function namespaceForDir(dir: string): string {
  const actor = userInfo().username.replace(/[/\s]/g, '_') || 'user';
  const id = createHash('sha256').update(resolve(dir)).digest('hex').slice(0, 16);
  return buildNamespace(actor, id);
}

import { join } from 'node:path';
import type { FileChange } from '../../init/files.js';
import { owned, removed } from '../../init/files.js';
import { type AgentInstaller, scopedPath } from '../../init/installer.js';
import { readText } from '../../init/json-file.js';

/** The hooks kiro-learn uses; each is an executable file of that name. */
const HOOKS = [
  'TaskStart',
  'TaskResume',
  'UserPromptSubmit',
  'PostToolUse',
  'TaskComplete',
  'TaskCancel',
  'PreCompact',
] as const;

const hooksDir = scopedPath(['Documents', 'Cline', 'Hooks'], ['.clinerules', 'hooks']);

/** Marks the files kiro-learn wrote: a file without it is the user's own hook. */
const MARK = '# kiro-learn hook for Cline';

/**
 * One hook file: runs the hook command, and answers `{"cancel": false}` itself when
 * kiro-learn is not installed (Cline reads every hook's stdout as JSON).
 */
function hookFile(command: string): string {
  return `#!/bin/sh
${MARK}, written by \`kiro-learn init\` (\`kiro-learn uninstall\` removes it).
${command.replace(/; exit 0$/, '')}
printf '{"cancel":false}\\n'
`;
}

const ours = (path: string) => readText(path)?.includes(MARK) ?? false;

/**
 * Cline (v3.36+): hooks are executable files named after the hook, in
 * `.clinerules/hooks/` (committed with the project's rules: no path of this machine) or
 * `~/Documents/Cline/Hooks/`. A hook file of the user's own is left alone, and init says
 * so. Cline's MCP servers live in its extension settings: add kiro-learn there.
 */
export const clineInstaller: AgentInstaller = {
  surface: 'cline',
  title: 'Cline',
  detect: (home, _onPath, isDir) =>
    isDir(join(home, 'Documents', 'Cline')) || isDir(join(home, '.cline')),
  scripts: () => ['cline'],
  install(ctx) {
    const command = ctx.hookCommand('cline', [], ctx.scope === 'project');
    const changes: FileChange[] = [];
    for (const hook of HOOKS) {
      const path = join(hooksDir(ctx), hook);
      if (readText(path) !== null && !ours(path)) continue;
      changes.push(owned(path, ctx.show, hookFile(command), `Cline ${hook} hook`, 0o755));
    }
    return changes;
  },
  uninstall: (ctx) =>
    HOOKS.flatMap((hook) => {
      const path = join(hooksDir(ctx), hook);
      return ours(path) ? removed(path, ctx.show, `Cline ${hook} hook`) : [];
    }),
  notes(ctx) {
    const foreign = HOOKS.filter((hook) => {
      const path = join(hooksDir(ctx), hook);
      return readText(path) !== null && !ours(path);
    });
    return [
      ...(foreign.length > 0
        ? [
            `Cline: ${foreign.join(', ')} in ${ctx.show(hooksDir(ctx))} are your own hooks and were left alone; kiro-learn does not record those events.`,
          ]
        : []),
      "Cline: turn hooks on in Cline's settings; add the kiro-learn MCP server in Cline's MCP settings (command: kiro-learn-mcp).",
    ];
  },
};

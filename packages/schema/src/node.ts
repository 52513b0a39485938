/**
 * @kiro-learn/schema/node: Node-only helpers shared by the collector, the shims and the MCP
 * server, so all three agree on where data lives and how to reach the collector.
 *
 * Kept free of zod at run time: the shims import this and must start fast.
 */
export { dataDir, ensureDataDir } from './node/paths.js';
export {
  normalizeRemote,
  PROJECT_MARKERS,
  type ProjectIdentity,
  type ProjectIdentityOptions,
  projectIdentity,
} from './node/project.js';
export { type CollectorAddress, collectorAddress } from './node/settings.js';

import { collectorAddress } from '@kiro-learn/schema/node';

/** How the MCP server runs. */
export interface McpServerConfig {
  /** `http://host:port` of the collector. */
  collectorUrl: string;
  /** Bearer token for the collector, when one is configured. */
  token?: string;
  /** Project directory used when the client announces no root (normally the working directory). */
  projectDir: string;
  /** Per-request timeout towards the collector, in milliseconds. */
  timeoutMs: number;
}

/** Default collector request timeout: long enough for a cold search, short enough for an agent. */
export const DEFAULT_TIMEOUT_MS = 5000;

/**
 * The configuration the bin uses: the collector address exactly as the daemon and the hooks
 * read it (`settings.json`, then `KIRO_LEARN_HOST`/`PORT`/`TOKEN`), the working directory as
 * the project. `overrides` wins over both.
 */
export function resolveConfig(
  overrides: Partial<McpServerConfig> = {},
  env: NodeJS.ProcessEnv = process.env,
): Readonly<McpServerConfig> {
  const address = collectorAddress(env);
  return Object.freeze({
    collectorUrl: address.baseUrl,
    ...(address.token ? { token: address.token } : {}),
    projectDir: process.cwd(),
    timeoutMs: DEFAULT_TIMEOUT_MS,
    ...overrides,
  });
}

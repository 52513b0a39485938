import { SURFACES, type Surface } from '@kiro-learn/schema';

/** Surfaces no agent is installed into: events that come over MCP or the HTTP API. */
type NotAnAgent = 'mcp' | 'api';
export type InstallSurface = Exclude<Surface, NotAnAgent>;

/**
 * The agents `init` can install into (each has an installer in its agent module): every
 * surface of the schema but MCP and the API, in the schema's order.
 */
export const INSTALL_SURFACES: readonly InstallSurface[] = SURFACES.filter(
  (surface): surface is InstallSurface => surface !== 'mcp' && surface !== 'api',
);

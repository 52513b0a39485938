import { ACP_DEFAULTS, type AcpExtractorOptions, createAcpExtractor } from './acp-extractor.js';
import { createBuiltinExtractor } from './builtin/extractor.js';
import { findExecutable, parseCommand } from './command.js';
import type { Extractor } from './types.js';

/** Which extractor `createExtractor` builds. */
export type ExtractorMode = 'auto' | 'acp' | 'builtin';

export interface ExtractorConfig extends AcpExtractorOptions {
  /** `auto` (default): ACP when the agent command is installed, else built-in. */
  mode?: ExtractorMode;
}

/**
 * The extractor the collector should use. In `auto` mode a missing agent command (the
 * usual case on day one: no `kiro-cli`) selects the built-in extractor instead of
 * failing every extraction.
 */
export function createExtractor(config: ExtractorConfig = {}): Extractor {
  const mode = config.mode ?? 'auto';
  if (mode === 'builtin') return createBuiltinExtractor();
  if (mode === 'auto') {
    const [program] = parseCommand(config.command ?? ACP_DEFAULTS.command);
    if (findExecutable(program!, config.env) === undefined) return createBuiltinExtractor();
  }
  return createAcpExtractor(config);
}

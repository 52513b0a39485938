/**
 * @kiro-learn/extractor: turns batches of events into memory records.
 *
 * Two extractors share one interface (`Extractor.extract(batch)`): the ACP extractor asks
 * an agent (default `kiro-cli acp --agent kiro-learn-compressor`) over the Agent Client
 * Protocol, one fresh process per prompt; the built-in extractor applies deterministic
 * rules and needs no model. `createExtractor` picks between them. The scripted ACP test
 * agent lives at the `@kiro-learn/extractor/test-agent` subpath.
 *
 * Everything exported here is public API.
 */

export { type AcpPromptOptions, type AcpReply, runAcpPrompt } from './acp.js';
// The ACP extractor and its parts.
export { ACP_DEFAULTS, type AcpExtractorOptions, createAcpExtractor } from './acp-extractor.js';
// The built-in extractor.
export { createBuiltinExtractor } from './builtin/extractor.js';
export { findExecutable, parseCommand } from './command.js';
// The compaction summarizer's prompt and reply (the ACP extractor's `summarize`).
export {
  buildCompactionPrompt,
  COMPACTION_INSTRUCTIONS,
  type CompactionReply,
  type CompactionRequest,
  type ParsedCompaction,
  parseCompactionReply,
} from './compaction.js';
// New records next to existing ones: near duplicates merged, supersessions found (no model).
export {
  type Curation,
  type CurationInput,
  curateRecords,
  isNearDuplicate,
  NEAR_DUPLICATE,
  type Supersession,
  similarity,
  supersessionReason,
} from './curate.js';
export { ExtractorError, type ExtractorErrorCode } from './errors.js';
// XML framing of events and parsing of replies.
export { type FramedPart, frameBatches, frameEvent } from './frame.js';
export { createLimiter, type Limiter } from './limiter.js';
export { type ParsedReply, parseReply } from './parse.js';
// The compressor prompt and agent definition (`kiro-learn init` writes the latter).
export {
  buildPrompt,
  COMPRESSOR_AGENT_NAME,
  COMPRESSOR_INSTRUCTIONS,
  compressorAgentConfig,
} from './prompt.js';
// Stopping agents a killed collector left running.
export { reapStaleAgents } from './reap.js';
export { type RecordContext, type RecordDraft, toRecord } from './records.js';
// Choosing an extractor from configuration.
export { createExtractor, type ExtractorConfig, type ExtractorMode } from './select.js';
// The contract every extractor meets.
export type { ExtractionBatch, ExtractionResult, Extractor } from './types.js';
export { escapeXml, unescapeXml } from './xml.js';

/**
 * The transcript replay harness: public Claude Code session transcripts turned into the hook
 * payloads Claude Code sends and piped into the installed hooks of a real collector; what was
 * stored and what came back, measured. Used by the replay report (`src/cli.ts`), the replay
 * test, and the retrieval work's in-session figures.
 */
export {
  contextFigures,
  hasPathInText,
  isMarkdownStructure,
  isOutsidePath,
  isQuestionOnly,
  isToolNameAsFile,
  NEAR_DUPLICATE_JACCARD,
  nearDuplicatePairs,
  type StoreFigures,
  storeFigures,
  titleWords,
} from './metrics.ts';
export {
  type PromptContext,
  type ReplayedTranscript,
  type ReplayOptions,
  type ReplayResult,
  replay,
  type TranscriptSource,
} from './replay.ts';
export {
  availableSources,
  CACHE,
  FIXTURES,
  fileOf,
  type SourceEntry,
  sourceEntries,
} from './sources.ts';
export { type HookCall, type HookEvent, type Transcript, transcriptToHooks } from './transcript.ts';
export {
  CLI,
  freePort,
  type HookResult,
  makeWorld,
  type World,
  type WorldOptions,
} from './world.ts';

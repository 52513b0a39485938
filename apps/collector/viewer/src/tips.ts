// Tooltips in plain words for every column, state and card the viewer shows: the words
// kiro-learn uses ("breaker", "compaction") mean nothing until someone says what they do.

/** Event kinds (the badges on rows). */
export const KIND_TIPS: Record<string, string> = {
  prompt: 'A prompt you typed to the agent',
  tool_use: 'A tool the agent ran: a command, a file read or edit, a search',
  session_summary: "The end of a turn, with the agent's answer when it gives one",
  note: 'Something else the agent reported: a session starting, a compaction',
};

/** Columns of the Projects table. */
export const COLUMN_TIPS: Record<string, string> = {
  Project: 'A repository kiro-learn has seen events from; memories never cross projects',
  Events: 'Everything the hooks recorded in this project: prompts, tool calls, turn ends',
  Memories: 'Short records distilled from the events; these come back with your prompts',
  Pending: 'Events waiting to be distilled into memories, and their size',
  Breaker:
    'Whether extraction runs: closed is normal; open means it failed several times in a row and is paused for a while; half-open means it is trying again',
  Compaction:
    'When a project collects more pending events than fit one extraction, they are summarised into a chain of summary records first; this shows how far that got',
  'Last extraction': 'The last time events were distilled into memories, and how it went',
};

/** Circuit breaker states (the badges in the Breaker column). */
export const BREAKER_TIPS: Record<string, string> = {
  closed: 'Extraction runs normally',
  open: 'Extraction failed several times in a row and is paused; it retries by itself later (or press Extract now)',
  'half-open': 'Extraction is trying again after a pause; one success closes the breaker',
};

/** Extraction outcomes (feed rows and the Last extraction column). */
export const EXTRACTION_TIPS: Record<string, string> = {
  ok: 'The events were distilled into memories',
  succeeded: 'The events were distilled into memories',
  failed: 'The extractor could not distil these events; they stay pending and are tried again',
  skipped: 'Nothing in these events was worth keeping',
  empty: 'Nothing in these events was worth keeping',
};

/** Flags and words on retrieval rows. */
export const RETRIEVAL_TIPS = {
  row: 'Memory added to the context of a prompt: which records, how relevant (0 to 1), and how long it took',
  budgetCut: 'More records matched than fit the context budget; the least relevant were left out',
  timedOut: 'Retrieval ran out of its time budget; the prompt went on with what was found so far',
  nothing: 'No stored memory was relevant enough to this prompt',
};

/** Cards of the Health screen. */
export const CARD_TIPS: Record<string, string> = {
  Version: 'The version of the running collector',
  Uptime: 'How long the collector has been running',
  Database: 'Size of the database file on disk',
  Extractor:
    'What distils events into memories: an ACP agent (an LLM), or the built-in rules when none is available',
  Events: 'Everything the hooks recorded, in every project',
  Memories: 'Memory records in every project',
  'Semantic search':
    'Finding memories by meaning, not only by shared words; needs the embedding model loaded',
  'Search index':
    'Records stored before an upgrade, or by a bulk import, enter the fast search index in the background; until then searches rank every match',
};

/** The live stream badge. */
export const STREAM_TIPS: Record<string, string> = {
  live: 'Connected: new events appear as they happen',
  connecting: 'Connecting to the collector…',
  reconnecting: 'The connection dropped; reconnecting',
  offline: 'The collector does not answer; is it running? (kiro-learn status)',
};

/** Memory record types (the badges on memories). */
export const TYPE_TIPS: Record<string, string> = {
  tool_use: 'What a tool call showed: a command, its output, a file',
  decision: 'A choice that was made, and why',
  error: 'Something that failed, and how it was fixed when it was',
  discovery: 'Something learned about the code or the system',
  pattern: 'A way things are done in this project',
  session_summary: 'What one turn of work did, in short',
};

/**
 * @kiro-learn/retrieval: turns a prompt into the block of prior observations an agent
 * reads before it starts, within a latency budget and a token budget, never failing.
 *
 * Everything exported here is public API.
 */

// The newest of a chain above what it superseded, unless the prompt asks how things were.
export { asksEarlierState } from './chain.js';
// The fixed context format, its token budget and the rule that leaves repeats out.
export {
  CHARS_PER_TOKEN,
  CONTEXT_HEADER,
  type ContextBudget,
  DEFAULT_MAX_OVERLAP,
  type FormattedContext,
  formatContext,
  supersededNote,
} from './context.js';
// What a record says beyond a prompt: the rules that keep echoes and empty records out.
export {
  contentStems,
  echoes,
  informationFree,
  onlyAsks,
  restates,
  saysNothing,
} from './echo.js';
export { RetrievalError, type RetrievalErrorCode } from './errors.js';
// Hybrid ranking: lexical and semantic hits fused by how well the words already match.
export {
  coverage,
  DEFAULT_HYBRID_WEIGHTS,
  fuseHits,
  type HybridWeights,
  type SemanticHit,
} from './hybrid.js';
export {
  DEFAULT_SEARCH_WEIGHTS,
  type ResolvedRetrieverOptions,
  type RetrieverOptions,
} from './options.js';
// The session-start overview: open problems, decisions, what changed.
export { bareRequest, type OverviewOptions, overview } from './overview.js';
// The query text of a prompt event's body.
export { promptFromBody } from './prompt.js';
// Ranking on top of storage's BM25: file, identifier and concept boosts, mild recency.
export { DEFAULT_RANK_WEIGHTS, type RankedHit, type RankWeights, rankHits } from './rank.js';
export {
  authorLabel,
  type MergedHit,
  mergeRemote,
  type RemoteHit,
  type RemoteSource,
} from './remote.js';
// The retriever: createRetriever({ storage }) → retrieve / sessionStart / search.
export {
  createRetriever,
  type RetrievalOutcome,
  type RetrieveRequest,
  type Retriever,
  type SearchRequest,
  type SemanticOutcome,
  type SessionStartRequest,
  type WindowResetRequest,
} from './retriever.js';
// Semantic search through interfaces (no dependency on an embedding package).
export {
  embeddingText,
  type QueryEmbedder,
  type SemanticOptions,
  type VectorSource,
} from './semantic.js';
// What the retrieval log keeps as the query of a session start.
export { SESSION_START_QUERY } from './session.js';
export { analysePrompt, type PromptTerms, splitParts, stem } from './terms.js';

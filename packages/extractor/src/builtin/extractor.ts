import { toRecord } from '../records.js';
import type { Extractor } from '../types.js';
import { summarizeTurn } from './summarize.js';
import { groupTurns } from './turns.js';

/**
 * The built-in extractor: deterministic rules, no model. Per turn of the batch it writes
 * a `session_summary` (the request, files read and modified, commands and their outcome,
 * errors and whether a later step fixed them, the agent's answer), an `error` record per
 * distinct failure, and a `discovery` for the agent's closing explanation.
 */
export function createBuiltinExtractor(): Extractor {
  return {
    name: 'builtin',
    async extract(batch) {
      const createdAt = new Date().toISOString();
      const records = groupTurns(batch.events).flatMap((turn) =>
        summarizeTurn(turn)
          .map((draft) =>
            toRecord(draft, {
              namespace: batch.namespace,
              batchIds: turn.events.map((event) => event.event_id),
              strategy: 'builtin',
              createdAt,
            }),
          )
          .filter((record) => record !== undefined),
      );
      return { extractor: 'builtin', records, attempts: 1 };
    },
  };
}

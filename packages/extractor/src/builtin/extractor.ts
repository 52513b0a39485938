import { bodyText, type Event } from '@kiro-learn/schema';
import { toRecord } from '../records.js';
import type { Extractor } from '../types.js';
import { isInformationFree } from './prose.js';
import { summarizeTurn, type TurnContext } from './summarize.js';
import { groupTurns, type Turn } from './turns.js';

/**
 * The built-in extractor: deterministic rules, no model. Per turn of the batch it writes
 * a `session_summary` (the request, files read and modified, commands and their outcome,
 * errors and whether a later step fixed them, the agent's answer as plain facts) and an
 * `error` record per distinct failed command. A turn that only asked (no tool use, no
 * answer) writes nothing: its request goes with the next record of the session as a
 * question that record answers.
 */
export function createBuiltinExtractor(): Extractor {
  return {
    name: 'builtin',
    async extract(batch) {
      const createdAt = new Date().toISOString();
      const contexts = sessionContexts(batch.preceding ?? []);
      const records = groupTurns(batch.events).flatMap((turn) => {
        const context = contexts.get(turn.sessionId) ?? { questions: [] };
        contexts.set(turn.sessionId, context);
        // Only a turn that continues one from an earlier batch (no prompt of its own) takes
        // that turn's request; the next turn with a prompt starts afresh.
        const { drafts, question } = summarizeTurn(turn, {
          ...(turn.prompt
            ? {}
            : {
                ...(context.request ? { request: context.request } : {}),
                ...(context.requestEventId ? { requestEventId: context.requestEventId } : {}),
              }),
          questions: context.questions,
          ...(context.previousRequest ? { previousRequest: context.previousRequest } : {}),
          ...(!turn.prompt && context.previousRequestEventId
            ? { previousRequestEventId: context.previousRequestEventId }
            : {}),
        });
        if (turn.prompt) {
          delete context.request;
          delete context.requestEventId;
          remember(context, turn);
        }
        if (question !== undefined) context.questions.push(question);
        else if (drafts.length > 0) context.questions = [];
        return drafts
          .map((draft) =>
            toRecord(draft, {
              namespace: batch.namespace,
              batchIds: turn.events.map((event) => event.event_id),
              strategy: 'builtin',
              createdAt,
            }),
          )
          .filter((record) => record !== undefined);
      });
      return { extractor: 'builtin', records, attempts: 1 };
    },
  };
}

interface SessionContext extends TurnContext {
  questions: string[];
}

/**
 * What the events before a batch leave to its turns, per session: the request of a turn
 * still open when the batch began, and the requests of question-only turns just before.
 */
function sessionContexts(preceding: readonly Event[]): Map<string, SessionContext> {
  const contexts = new Map<string, SessionContext>();
  const turns = groupTurns(preceding);
  for (const turn of turns) {
    const context = contexts.get(turn.sessionId) ?? { questions: [] };
    contexts.set(turn.sessionId, context);
    const { drafts, question } = summarizeTurn(turn, {
      questions: context.questions,
      ...(context.previousRequest ? { previousRequest: context.previousRequest } : {}),
    });
    if (question !== undefined) context.questions.push(question);
    else if (drafts.length > 0) context.questions = [];
    if (turn.prompt) remember(context, turn);
    if (turn.prompt) {
      delete context.request;
      delete context.requestEventId;
      if (!turn.end) {
        const request = requestOf(turn);
        if (request !== undefined) context.request = request;
        context.requestEventId = turn.prompt.event_id;
      }
    }
  }
  return contexts;
}

/** A turn's informative request becomes the one the next `ok do it` is about. */
function remember(context: SessionContext, turn: Turn): void {
  if (turn.prompt) context.previousRequestEventId = turn.prompt.event_id;
  const request = requestOf(turn);
  if (request !== undefined && !isInformationFree(request)) context.previousRequest = request;
}

function requestOf(turn: Turn): string | undefined {
  return turn.prompt ? bodyText(turn.prompt.body) : undefined;
}

import type { EventBody } from '@kiro-learn/schema';

/**
 * The text a prompt event asks about: text → content, message → the last turn (earlier
 * turns are history the agent already has), json → the serialized data.
 */
export function promptFromBody(body: EventBody): string {
  switch (body.type) {
    case 'text':
      return body.content;
    case 'message':
      return body.turns.at(-1)?.content ?? '';
    case 'json':
      try {
        return typeof body.data === 'string' ? body.data : (JSON.stringify(body.data) ?? '');
      } catch {
        // Cycles or BigInts cannot come off the wire, but an embedding caller might pass them.
        return '';
      }
  }
}

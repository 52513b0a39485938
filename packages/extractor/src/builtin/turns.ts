import type { Event } from '@kiro-learn/schema';

/** One prompt, the tool uses that followed, and the turn's end, of one session. */
export interface Turn {
  sessionId: string;
  /** Every event of the turn, oldest first (notes included, for citations). */
  events: Event[];
  prompt?: Event;
  end?: Event;
}

/**
 * Splits a batch into turns: per session, a `prompt` opens a turn and a
 * `session_summary` closes it. Events before a session's first prompt (a spawn note, the
 * tail of a turn extracted earlier) form a turn of their own.
 */
export function groupTurns(events: readonly Event[]): Turn[] {
  const turns: Turn[] = [];
  const open = new Map<string, Turn>();
  for (const event of events) {
    let turn = open.get(event.session_id);
    if (!turn || event.kind === 'prompt') {
      turn = { sessionId: event.session_id, events: [] };
      turns.push(turn);
      open.set(event.session_id, turn);
    }
    turn.events.push(event);
    if (event.kind === 'prompt') turn.prompt = event;
    if (event.kind === 'session_summary') {
      turn.end = event;
      open.delete(event.session_id);
    }
  }
  return turns;
}

// Events as tests write them: valid (a fresh id, now), the fields a test does not care
// about filled in, `overrides` on top. The storage tests use it as it is; the collector's
// and the fault tests' factories name what differs for them (actor, kind, body).
import { type Event, newEventId } from '@kiro-learn/schema';
import { NS } from './records.js';

/** Alice's prompt in NS, from the Kiro CLI; override any field. */
export function event(overrides: Partial<Event> = {}): Event {
  return {
    event_id: newEventId(),
    session_id: 'sess-1',
    actor_id: 'alice',
    namespace: NS,
    schema_version: 1,
    kind: 'prompt',
    body: { type: 'text', content: 'why does the webhook test fail?' },
    valid_time: new Date().toISOString(),
    source: { surface: 'kiro-cli', version: '1.0.0', client_id: 'test' },
    ...overrides,
  };
}

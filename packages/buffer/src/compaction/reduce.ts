import type { Event } from '@kiro-learn/schema';
import { commandOf, filesOf, outcomeOf, toolCall } from './classify.js';

/** How an event was reduced. */
export type Reduction = 'archived' | 'dropped' | 'structured';

/** The one line an event leaves in the extraction prompt once reduced: id, kind, time, how to recover it. */
export function marker(event: Event, how: Reduction, recordId?: string): string {
  const where = recordId ? `, summarized in ${recordId}` : '';
  return `[kiro-learn ${how}: ${event.kind} ${event.event_id} at ${event.valid_time}${where}; recover it with get_event ${event.event_id}]`;
}

/** A marker in place of the event: same id, kind and time, so records may still cite it. */
export function markerEvent(event: Event, how: Reduction, recordId?: string): Event {
  return { ...event, body: { type: 'text', content: marker(event, how, recordId) } };
}

/**
 * The deterministic preview `keep_structured` leaves: tool name, files, command, exit
 * status, plus the marker. Anything else (a note) keeps its first line.
 */
export function structuredEvent(event: Event): Event {
  const tool = toolCall(event);
  if (!tool) {
    const text = event.body.type === 'text' ? event.body.content : '';
    const first = text.split('\n', 1)[0]?.slice(0, 200) ?? '';
    const content = `${first}${first ? ' ' : ''}${marker(event, 'structured')}`;
    return { ...event, body: { type: 'text', content } };
  }
  const files = filesOf(event);
  const command = commandOf(event);
  const { ok, exit } = outcomeOf(event);
  return {
    ...event,
    body: {
      type: 'json',
      data: {
        tool_name: tool.name,
        tool_input: {
          ...(files.length ? { paths: files } : {}),
          ...(command ? { command: command.slice(0, 500) } : {}),
        },
        tool_response: {
          ...(ok === undefined ? {} : { success: ok }),
          ...(exit === undefined ? {} : { exit_status: exit }),
          kiro_learn: marker(event, 'structured'),
        },
      },
    },
  };
}

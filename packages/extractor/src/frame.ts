import { bodyText, type Event } from '@kiro-learn/schema';
import { headTail } from './text.js';
import { escapeXml } from './xml.js';

/** How the compressor sees events: one XML element per event, named by what it was. */
const ELEMENT: Record<Event['kind'], string> = {
  prompt: 'user_prompt',
  tool_use: 'tool_use',
  session_summary: 'turn_end',
  note: 'note',
};

function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 1) ?? '');
}

function field(name: string, value: unknown, maxChars: number): string {
  const text = stringify(value);
  return text === '' ? '' : `\n  <${name}>${escapeXml(headTail(text, maxChars))}</${name}>`;
}

/**
 * One event as XML. Tool uses (json bodies of `{tool_name, tool_input, tool_response}`)
 * get their parts as elements; every other body is its text. Each text field is capped at
 * `maxFieldChars`, keeping head and tail (errors and totals sit at the end of output).
 */
export function frameEvent(event: Event, maxFieldChars: number): string {
  const name = ELEMENT[event.kind];
  const attrs = `event_id="${event.event_id}" session_id="${escapeXml(event.session_id)}" time="${escapeXml(event.valid_time)}"`;
  const data = event.body.type === 'json' ? event.body.data : undefined;
  if (
    event.kind === 'tool_use' &&
    data !== null &&
    typeof data === 'object' &&
    'tool_name' in data
  ) {
    const tool = data as { tool_name?: unknown; tool_input?: unknown; tool_response?: unknown };
    return `<${name} ${attrs}>${field('name', tool.tool_name, 200)}${field('input', tool.tool_input, maxFieldChars)}${field('output', tool.tool_response, maxFieldChars)}\n</${name}>`;
  }
  return `<${name} ${attrs}>${escapeXml(headTail(bodyText(event.body), maxFieldChars))}</${name}>`;
}

/** One prompt's worth of framed events. */
export interface FramedPart {
  /** Ids of the events in this part, oldest first. */
  eventIds: string[];
  /** The `<events>` element. */
  text: string;
}

/** Frames events into `<events>` parts of at most about `maxChars` each (one part per prompt). */
export function frameBatches(
  events: readonly Event[],
  maxChars: number,
  maxFieldChars: number,
): FramedPart[] {
  const parts: Array<{ eventIds: string[]; framed: string[]; size: number }> = [];
  for (const event of events) {
    const framed = frameEvent(event, maxFieldChars);
    let part = parts.at(-1);
    if (!part || (part.framed.length > 0 && part.size + framed.length + 1 > maxChars)) {
      part = { eventIds: [], framed: [], size: 0 };
      parts.push(part);
    }
    part.eventIds.push(event.event_id);
    part.framed.push(framed);
    part.size += framed.length + 1;
  }
  return parts.map((part) => ({
    eventIds: part.eventIds,
    text: `<events>\n${part.framed.join('\n')}\n</events>`,
  }));
}

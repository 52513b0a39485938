// What a row says about an event: a tool call as its tool, the argument that matters and
// how it ended; a turn's end as the agent's answer; anything else as its text. The raw
// event (JSON exactly as stored) is one click away on every row.
import { type Child, h } from './dom.js';
import { KIND_TIPS } from './tips.js';
import type { EventSummary } from './types.js';

/** The kind badge, with its plain-words tooltip. */
export function kindBadge(kind: EventSummary['kind']): HTMLElement {
  return h(
    'span',
    { class: `badge kind-${kind}`, title: KIND_TIPS[kind] ?? kind },
    kind.replace('_', ' '),
  );
}

export function eventText(e: EventSummary): Child {
  if (e.tool) {
    const { name, target, outcome } = e.tool;
    return h(
      'span',
      { class: 'tool-call' },
      h('strong', { class: 'tool-name' }, name),
      target && h('code', { class: 'tool-target' }, target),
      outcome &&
        h(
          'span',
          {
            class: `badge outcome-${outcome.ok ? 'ok' : 'failed'}`,
            title: outcome.ok ? 'The tool call succeeded' : 'The tool call failed',
          },
          outcome.text,
        ),
    );
  }
  if (e.kind === 'session_summary' && !e.preview) {
    return h('em', { class: 'empty' }, 'Turn ended (the agent sent no answer text)');
  }
  return e.preview || h('em', { class: 'empty' }, '(no text)');
}

import { h } from './dom.js';
import { count, when } from './format.js';
import type { CompactionMetadata, MemoryRecord } from './types.js';

/** "48,210 → 2,950 tokens (−94%)". */
export function tokens(before: number, after: number): string {
  const saved = before > 0 ? ` (−${Math.round((1 - after / before) * 100)}%)` : '';
  return `${count(before)} → ${count(after)} tokens${saved}`;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const object = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/**
 * A summary record's chain data. Anyone may post a record with strategy `compaction`, so
 * every field is read defensively: a malformed one renders as missing, never as a crash.
 */
export function chainOf(record: MemoryRecord): CompactionMetadata | undefined {
  if (record.strategy !== 'compaction') return undefined;
  const raw = object(record.metadata?.['compaction']);
  const range = object(raw['range']);
  const tokenCounts = object(raw['tokens']);
  const facts: Record<string, string> = {};
  for (const [key, value] of Object.entries(object(raw['facts'])))
    if (typeof value === 'string') facts[key] = value;
  return {
    parent: text(raw['parent']) ?? null,
    pass: num(raw['pass']) || 1,
    mode: raw['mode'] === 'incremental' ? 'incremental' : 'full_rewrite',
    range: {
      first: text(range['first']) ?? record.source_event_ids[0] ?? '',
      last: text(range['last']) ?? record.source_event_ids.at(-1) ?? '',
      from: text(range['from']) ?? record.created_at,
      to: text(range['to']) ?? record.created_at,
      events: num(range['events']) || record.source_event_ids.length,
    },
    facts,
    obsolete: texts(raw['obsolete']),
    changed: (Array.isArray(raw['changed']) ? raw['changed'] : []).map(object).flatMap((c) => {
      const [key, from, to] = [text(c['key']), text(c['from']), text(c['to'])];
      return key !== undefined && from !== undefined && to !== undefined ? [{ key, from, to }] : [];
    }),
    repairs: texts(raw['repairs']),
    tokens: { before: num(tokenCounts['before']), after: num(tokenCounts['after']) },
    summarizer: text(raw['summarizer']) ?? 'unknown',
  };
}

/** The record's facts exactly as the chain stores them, to tell whether an edit diverged. */
export function chainFactLines(chain: CompactionMetadata): string[] {
  return Object.entries(chain.facts).map(([key, value]) => `${key}: ${value}`);
}

/** The record page's "Compaction chain" section: its place in the chain and what it covers. */
export function chainSection(chain: CompactionMetadata): HTMLElement {
  const was = new Map(chain.changed.map((c) => [c.key, c.from]));
  const facts = Object.entries(chain.facts);
  const row = (label: string, ...value: (Node | string | false)[]) =>
    h('div', {}, h('dt', {}, label), h('dd', {}, ...value));
  return h(
    'section',
    { class: 'chain' },
    h('h2', {}, 'Compaction chain'),
    h(
      'dl',
      { class: 'pairs' },
      row(
        'Pass',
        `${count(chain.pass)} · ${chain.mode.replace('_', ' ')} · by ${chain.summarizer}`,
      ),
      row(
        'Previous summary',
        chain.parent
          ? h('a', { href: `#/memories/${chain.parent}` }, h('code', {}, chain.parent))
          : h('span', { class: 'empty' }, 'none: the first summary of the project'),
      ),
      row(
        'Covers',
        `${count(chain.range.events)} event${chain.range.events === 1 ? '' : 's'}, ${when(chain.range.from)} → ${when(chain.range.to)} `,
        h(
          'small',
          { class: 'ns' },
          h('code', {}, chain.range.first),
          ' … ',
          h('code', {}, chain.range.last),
        ),
      ),
      row('Prompt size', tokens(chain.tokens.before, chain.tokens.after)),
    ),
    h('h3', {}, 'Facts carried by the chain'),
    facts.length
      ? h(
          'table',
          { class: 'facts' },
          h(
            'thead',
            {},
            h('tr', {}, h('th', { scope: 'col' }, 'Key'), h('th', { scope: 'col' }, 'Value')),
          ),
          h(
            'tbody',
            {},
            facts.map(([key, value]) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, h('code', {}, key)),
                h(
                  'td',
                  {},
                  value,
                  was.has(key) &&
                    h('small', { class: 'ns' }, `changed this pass; was “${was.get(key)}”`),
                ),
              ),
            ),
          ),
        )
      : h('p', { class: 'empty' }, 'No facts.'),
    chain.obsolete.length > 0 &&
      h(
        'p',
        { class: 'meta' },
        'Retired keys: ',
        chain.obsolete.map((key, i) => [i ? ', ' : '', h('code', {}, key)]),
      ),
    chain.repairs.length > 0 &&
      h(
        'div',
        { class: 'repairs' },
        h('h3', {}, 'Integrity repairs'),
        h(
          'ul',
          {},
          chain.repairs.map((r) => h('li', {}, r)),
        ),
      ),
  );
}

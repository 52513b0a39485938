import { api, describe } from './api.js';
import { tokens } from './compaction.js';
import { askToForget, fill, h } from './dom.js';
import { onFeed } from './feed.js';
import { ago, bytes, count, duration, plural } from './format.js';
import { BREAKER_TIPS, COLUMN_TIPS, EXTRACTION_TIPS } from './tips.js';
import type { ProjectRow } from './types.js';

function lastExtraction(row: ProjectRow): HTMLElement {
  const x = row.last_extraction;
  if (!x) return h('span', { class: 'empty' }, 'never');
  return h(
    'span',
    { class: `status-${x.status}`, title: EXTRACTION_TIPS[x.status] ?? x.status },
    `${ago(x.startedAt)} · ${x.status} · ${plural(x.records, 'record')} in ${duration(x.durationMs)}`,
    x.error && h('span', { class: 'reason' }, ` — ${x.error}`),
  );
}

/** The summary chain: how long, what the last pass saved, and whether it is stuck. */
function compaction(row: ProjectRow): HTMLElement {
  const c = row.compaction;
  if (!c) return h('span', { class: 'empty' }, 'unknown');
  if (!c.enabled) return h('span', { class: 'empty' }, 'off');
  return h(
    'span',
    { class: 'compaction' },
    c.head
      ? [
          h(
            'a',
            { href: `#/memories/${c.head.recordId}`, title: 'The newest summary record' },
            `${count(c.head.pass)} ${c.head.pass === 1 ? 'summary' : 'summaries'}`,
          ),
          h(
            'small',
            { class: 'ns' },
            `last pass: ${tokens(c.head.tokens.before, c.head.tokens.after)}`,
          ),
        ]
      : h('span', { class: 'empty' }, 'no summaries yet'),
    c.exhausted &&
      h(
        'span',
        {
          class: 'badge breaker-half-open',
          title: `Nothing left to reclaim at ${count(c.exhausted.tokens)} tokens (${ago(c.exhausted.at)}); a newer compactable event re-arms compaction.`,
        },
        'exhausted',
      ),
    c.lastError && h('span', { class: 'reason' }, `last error: ${c.lastError}`),
  );
}

function extractButton(row: ProjectRow): HTMLElement {
  const out = h('span', { class: 'note', role: 'status' });
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      disabled: row.pending.count === 0,
      title: row.pending.count === 0 ? 'Nothing pending' : 'Extract the pending events now',
      'aria-label': `Extract now: ${row.project}`,
    },
    'Extract now',
  );
  button.addEventListener('click', async () => {
    button.setAttribute('disabled', '');
    out.textContent = 'starting…';
    try {
      const result = await api<{ finished: boolean }>('/ui/api/projects/extract', {
        method: 'POST',
        body: { namespace: row.namespace },
      });
      // The row itself refreshes when the run's result arrives on the stream.
      out.textContent = result.finished ? 'done' : 'started';
    } catch (error) {
      out.textContent = describe(error);
      out.classList.add('error');
      button.removeAttribute('disabled');
    }
  });
  return h('span', { class: 'extract' }, button, out);
}

const memories = (n: number) => `${count(n)} ${n === 1 ? 'memory' : 'memories'}`;

/** "Forget…": asks inline, then deletes everything of the project for good. */
function forgetButton(row: ProjectRow, reload: () => void, status: HTMLElement): HTMLElement {
  const box = h('span', { class: 'forget' });
  const start = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      title: 'Delete every event, memory and log line of this project, for good',
      'aria-label': `Forget project: ${row.project}`,
    },
    'Forget…',
  );
  const reset = () => fill(box, start);
  start.addEventListener('click', () => {
    const { yes, no } = askToForget(
      box,
      `Forget ${row.project} for good: ${plural(row.events, 'event')}, ${memories(row.memories)}? `,
    );
    no.addEventListener('click', () => {
      reset();
      start.focus();
    });
    yes.addEventListener('click', async () => {
      yes.setAttribute('disabled', '');
      try {
        const done = await api<{ counts: { events: number; records: number } }>('/v1/forget', {
          method: 'POST',
          body: { namespace: row.namespace },
        });
        status.textContent = `Forgot ${row.project}: ${plural(done.counts.events, 'event')}, ${memories(done.counts.records)}.`;
        reload();
      } catch (error) {
        status.textContent = describe(error);
        status.classList.add('error');
        reset();
      }
    });
  });
  reset();
  return box;
}

export function renderProjects(view: HTMLElement): () => void {
  const status = h('p', { class: 'status', role: 'status' }, 'Loading…');
  const note = h('p', { class: 'note', role: 'status', 'aria-label': 'Forget result' });
  const body = h('tbody');
  fill(
    view,
    h('div', { class: 'toolbar' }, h('h1', {}, 'Projects')),
    status,
    note,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            [
              'Project',
              'Events',
              'Memories',
              'Pending',
              'Breaker',
              'Compaction',
              'Last extraction',
              '',
            ].map((t) =>
              h('th', { scope: 'col', ...(COLUMN_TIPS[t] ? { title: COLUMN_TIPS[t] } : {}) }, t),
            ),
          ),
        ),
        body,
      ),
    ),
  );
  const load = () =>
    api<{ items: ProjectRow[] }>('/ui/api/projects')
      .then(({ items }) => {
        status.textContent = items.length
          ? `${count(items.length)} project${items.length === 1 ? '' : 's'}`
          : 'No projects yet: run kiro-learn init in a project, then work in it.';
        fill(
          body,
          items.map((row) =>
            h(
              'tr',
              {},
              h(
                'th',
                { scope: 'row' },
                h('a', { href: `#/memories?ns=${encodeURIComponent(row.namespace)}` }, row.project),
                h('small', { class: 'ns' }, row.namespace),
              ),
              h('td', { class: 'num' }, count(row.events)),
              h('td', { class: 'num' }, count(row.memories)),
              h(
                'td',
                { class: 'num' },
                `${count(row.pending.count)} · ${bytes(row.pending.bytes)}`,
              ),
              h(
                'td',
                {},
                h(
                  'span',
                  {
                    class: `badge breaker-${row.breaker}`,
                    title: BREAKER_TIPS[row.breaker] ?? row.breaker,
                  },
                  row.breaker,
                ),
                row.paused &&
                  h(
                    'span',
                    {
                      class: 'badge paused',
                      title: row.paused.until
                        ? `Capture paused until ${row.paused.until}`
                        : 'Capture paused until kiro-learn resume',
                    },
                    'paused',
                  ),
              ),
              h('td', {}, compaction(row)),
              h('td', {}, lastExtraction(row)),
              h(
                'td',
                {},
                extractButton(row),
                forgetButton(row, () => void load(), note),
              ),
            ),
          ),
        );
      })
      .catch((error: unknown) => {
        status.textContent = describe(error);
        status.classList.add('error');
      });
  void load();
  return onFeed((added) => {
    if (added.some((item) => item.type === 'extraction')) void load();
  });
}

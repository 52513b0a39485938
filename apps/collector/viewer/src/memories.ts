import { api, describe, qs } from './api.js';
import { fill, h } from './dom.js';
import { clip, count, project, when } from './format.js';
import { go } from './router.js';
import { originSlot, showOrigins } from './team.js';
import { TYPE_TIPS } from './tips.js';
import type { ListMemoriesResponse, MemoryRecord, ProjectRow } from './types.js';

const PAGE = 50;
const TYPES = ['tool_use', 'decision', 'error', 'discovery', 'pattern', 'session_summary'];

/** The filters live in the URL, so back, forward and reload keep them. */
interface Filters {
  q: string;
  ns: string;
  type: string;
  since: string;
  until: string;
  offset: number;
}

function readFilters(params: URLSearchParams): Filters {
  return {
    q: params.get('q') ?? '',
    ns: params.get('ns') ?? '',
    type: params.get('type') ?? '',
    since: params.get('since') ?? '',
    until: params.get('until') ?? '',
    offset: Math.max(0, Number.parseInt(params.get('offset') ?? '0', 10) || 0),
  };
}

function href(f: Filters): string {
  return `#/memories${qs({ q: f.q, ns: f.ns, type: f.type, since: f.since, until: f.until, offset: f.offset || undefined })}`;
}

function recordRow(record: MemoryRecord): HTMLElement {
  return h(
    'li',
    {},
    h(
      'a',
      { href: `#/memories/${record.record_id}`, class: 'record-row' },
      h('span', { class: 'title' }, record.title),
      h(
        'span',
        {
          class: `badge type-${record.observation_type}`,
          title: TYPE_TIPS[record.observation_type] ?? record.observation_type,
        },
        record.observation_type.replace('_', ' '),
      ),
      h(
        'span',
        { class: 'meta' },
        project(record.namespace),
        ' · ',
        when(record.created_at),
        originSlot(record),
        record.superseded_by
          ? h('span', { class: 'superseded', title: 'A newer record replaced it' }, ' · superseded')
          : false,
      ),
      h('span', { class: 'summary' }, clip(record.summary, 220)),
    ),
  );
}

/** Search ranks the best matches; the date filters then narrow those matches. */
function inDates(record: MemoryRecord, f: Filters): boolean {
  const day = record.created_at.slice(0, 10);
  return (!f.since || day >= f.since) && (!f.until || day <= f.until);
}

export function renderMemories(view: HTMLElement, params: URLSearchParams): void {
  const f = readFilters(params);
  const select = (name: string, label: string, value: string, options: [string, string][]) =>
    h(
      'label',
      {},
      label,
      h(
        'select',
        { name },
        h('option', { value: '' }, 'All'),
        options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
      ),
    );
  const projects = select('ns', 'Project', f.ns, f.ns ? [[f.ns, project(f.ns)]] : []);
  const form = h(
    'form',
    { class: 'filters', role: 'search' },
    h(
      'label',
      { class: 'grow' },
      'Search',
      h('input', {
        type: 'search',
        name: 'q',
        value: f.q,
        placeholder: 'Search memories, as your agent does (press / to focus)',
        autocomplete: 'off',
      }),
    ),
    projects,
    select(
      'type',
      'Type',
      f.type,
      TYPES.map((t) => [t, t.replace('_', ' ')]),
    ),
    h('label', {}, 'From', h('input', { type: 'date', name: 'since', value: f.since })),
    h('label', {}, 'To', h('input', { type: 'date', name: 'until', value: f.until })),
    h('button', { type: 'submit' }, 'Apply'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const value = (name: string) => String(data.get(name) ?? '').trim();
    go(
      href({
        q: value('q'),
        ns: value('ns'),
        type: value('type'),
        since: value('since'),
        until: value('until'),
        offset: 0,
      }),
    );
  });
  // Selects and dates apply at once; typed text waits for Enter.
  form.addEventListener('change', (event) => {
    if (
      (event.target as HTMLElement).tagName !== 'INPUT' ||
      (event.target as HTMLInputElement).type === 'date'
    ) {
      form.requestSubmit();
    }
  });

  const status = h('p', { class: 'status', role: 'status' }, 'Loading…');
  const list = h('ol', { class: 'records', 'aria-label': 'Memory records' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  fill(view, h('div', { class: 'toolbar' }, h('h1', {}, 'Memories')), form, status, list, pager);

  void api<{ items: ProjectRow[] }>('/ui/api/projects')
    .then(({ items }) => {
      const el = projects.querySelector('select')!;
      fill(
        el,
        h('option', { value: '' }, 'All'),
        items.map((p) =>
          h('option', { value: p.namespace, selected: p.namespace === f.ns }, p.project),
        ),
      );
    })
    .catch(() => {});

  const load = async () => {
    if (f.q) {
      const hits = await api<MemoryRecord[]>(
        `/v1/memories/search${qs({ query: f.q, namespace: f.ns, type: f.type, limit: 100 })}`,
      );
      const items = hits.filter((r) => inDates(r, f));
      status.textContent =
        items.length === 0
          ? `No memories match “${f.q}”.`
          : `${count(items.length)} best match${items.length === 1 ? '' : 'es'} for “${f.q}”`;
      fill(list, items.map(recordRow));
      void showOrigins(list, items);
      return;
    }
    const page = await api<ListMemoriesResponse>(
      `/ui/api/memories${qs({ namespace: f.ns, type: f.type, since: f.since, until: f.until, limit: PAGE, offset: f.offset })}`,
    );
    status.textContent =
      page.total === 0
        ? 'No memories yet. They are distilled from your sessions after each turn.'
        : `${count(f.offset + 1)}–${count(f.offset + page.items.length)} of ${count(page.total)}, newest first`;
    fill(list, page.items.map(recordRow));
    void showOrigins(list, page.items);
    fill(
      pager,
      f.offset > 0 &&
        h(
          'a',
          { href: href({ ...f, offset: Math.max(0, f.offset - PAGE) }), class: 'button secondary' },
          '← Newer',
        ),
      f.offset + PAGE < page.total &&
        h(
          'a',
          { href: href({ ...f, offset: f.offset + PAGE }), class: 'button secondary' },
          'Older →',
        ),
    );
  };
  load().catch((error: unknown) => {
    status.textContent = describe(error);
    status.classList.add('error');
  });
}

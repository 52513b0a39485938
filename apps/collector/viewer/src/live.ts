import { api } from './api.js';
import { type Child, fill, h } from './dom.js';
import { eventText, kindBadge } from './event-text.js';
import { feedItems, onFeed } from './feed.js';
import { clip, duration, plural, project, when } from './format.js';
import { openRawEvent } from './raw-event.js';
import { EXTRACTION_TIPS, RETRIEVAL_TIPS } from './tips.js';
import type { FeedItem } from './types.js';

type Kind = FeedItem['type'];
const shown: Record<Kind, boolean> = { event: true, extraction: true, retrieval: true };
const titles = new Map<string, string>();
/** Authors of teammates' records by id; null for this machine's own records. */
const origins = new Map<string, string | null>();

/** Titles of injected records, fetched once per id so retrieval rows read as words. */
async function resolveTitles(root: Element): Promise<void> {
  const links = [...root.querySelectorAll<HTMLAnchorElement>('a[data-record]')];
  const missing = [...new Set(links.map((a) => a.dataset['record']!))].filter(
    (id) => !titles.has(id),
  );
  for (let i = 0; i < missing.length; i += 100) {
    const batch = missing.slice(i, i + 100);
    const found = await api<Record<string, string>>(`/ui/api/titles?ids=${batch.join(',')}`).catch(
      () => ({}) as Record<string, string>,
    );
    for (const id of batch) titles.set(id, found[id] ?? '(deleted)');
  }
  // Teammates' records (team memory) say whose they are; the rest are this machine's own.
  const unknown = [...new Set(links.map((a) => a.dataset['record']!))].filter(
    (id) => !origins.has(id),
  );
  for (let i = 0; i < unknown.length; i += 100) {
    const batch = unknown.slice(i, i + 100);
    const found = await api<Record<string, { author: string }>>(
      `/ui/api/origins?ids=${batch.join(',')}`,
    ).catch(() => undefined);
    if (!found) break;
    for (const id of batch) origins.set(id, found[id]?.author ?? null);
  }
  for (const a of links) {
    const id = a.dataset['record']!;
    const title = titles.get(id);
    if (title) a.firstChild!.textContent = clip(title, 60);
    const author = origins.get(id);
    a.title = author ? `team record, from ${author}` : 'local record';
    if (author && !a.querySelector('.from')) {
      a.classList.add('team');
      a.insertBefore(h('em', { class: 'from' }, ` from ${author}`), a.firstChild!.nextSibling);
    }
  }
}

function row(item: FeedItem): HTMLElement {
  const time = h('time', { datetime: item.at }, when(item.at));
  switch (item.type) {
    case 'event': {
      const e = item.event;
      return h(
        'li',
        { class: 'feed-row event', 'data-key': item.key },
        time,
        kindBadge(e.kind),
        h('span', { class: 'meta' }, e.surface, ' · ', e.project),
        h(
          'button',
          {
            type: 'button',
            class: 'link preview',
            title: 'Open the event exactly as stored (JSON)',
            onclick: () => void openRawEvent(e.event_id),
          },
          eventText(e),
        ),
      );
    }
    case 'extraction': {
      const x = item.extraction;
      return h(
        'li',
        { class: `feed-row extraction status-${x.status}`, 'data-key': item.key },
        time,
        h(
          'span',
          { class: `badge extraction-${x.status}`, title: EXTRACTION_TIPS[x.status] ?? x.status },
          `extraction ${x.status}`,
        ),
        h('span', { class: 'meta' }, x.extractor, ' · ', project(x.namespace)),
        h(
          'span',
          { class: 'detail' },
          `${plural(x.batchSize, 'event')} → ${plural(x.records, 'record')} · ${duration(x.durationMs)}`,
          x.attempts > 1 && ` · ${x.attempts} attempts`,
          x.error && h('span', { class: 'reason' }, ` — ${x.error}`),
        ),
      );
    }
    case 'retrieval': {
      const r = item.retrieval;
      const records: Child[] = r.recordIds.map((id, i) =>
        h(
          'a',
          { href: `#/memories/${id}`, 'data-record': id, class: 'chip' },
          h('span', {}, id.slice(-8)),
          r.scores[i] !== undefined && h('small', {}, ` ${r.scores[i]!.toFixed(2)}`),
        ),
      );
      return h(
        'li',
        { class: 'feed-row retrieval', 'data-key': item.key },
        time,
        h('span', { class: 'badge retrieval', title: RETRIEVAL_TIPS.row }, 'retrieval'),
        h('span', { class: 'meta' }, project(r.namespace), ' · ', duration(r.latencyMs)),
        h(
          'span',
          { class: 'detail' },
          h('q', {}, clip(r.query.replace(/\s+/g, ' '), 160)),
          ' ',
          records.length ? records : h('em', { title: RETRIEVAL_TIPS.nothing }, 'nothing injected'),
          r.budgetCut &&
            h('span', { class: 'flag', title: RETRIEVAL_TIPS.budgetCut }, 'budget cut'),
          r.timedOut && h('span', { class: 'flag', title: RETRIEVAL_TIPS.timedOut }, 'timed out'),
          r.error && h('span', { class: 'reason' }, ` — ${r.error}`),
        ),
      );
    }
  }
}

export function renderLive(view: HTMLElement): () => void {
  // No aria-live: every redraw would re-read the whole feed; the stream badge announces state.
  const list = h('ol', { class: 'feed', 'aria-label': 'Live activity' });
  const empty = h(
    'p',
    { class: 'empty' },
    'Nothing yet. Events appear here as your agent works; start a session with kiro-learn hooks installed (kiro-learn init).',
  );
  const draw = () => {
    const visible = feedItems().filter((item) => shown[item.type]);
    // Redrawing must not throw a keyboard user out of the row they are on.
    const focused = document.activeElement?.closest<HTMLElement>('[data-key]')?.dataset['key'];
    fill(list, visible.map(row));
    if (focused) {
      list
        .querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"] :is(a, button)`)
        ?.focus();
    }
    empty.hidden = visible.length > 0;
    void resolveTitles(list);
  };
  const toggle = (kind: Kind, label: string) =>
    h(
      'button',
      {
        type: 'button',
        class: 'toggle',
        'aria-pressed': String(shown[kind]),
        onclick: (event) => {
          shown[kind] = !shown[kind];
          (event.currentTarget as HTMLElement).setAttribute('aria-pressed', String(shown[kind]));
          draw();
        },
      },
      label,
    );
  fill(
    view,
    h(
      'div',
      { class: 'toolbar' },
      h('h1', {}, 'Live activity'),
      h(
        'div',
        { class: 'toggles', role: 'group', 'aria-label': 'Show' },
        toggle('event', 'Events'),
        toggle('extraction', 'Extractions'),
        toggle('retrieval', 'Retrievals'),
      ),
    ),
    empty,
    list,
  );
  draw();
  return onFeed(draw);
}

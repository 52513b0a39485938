import { ApiError, api, describe, qs } from './api.js';
import { chainFactLines, chainOf, chainSection } from './compaction.js';
import { fill, h } from './dom.js';
import { eventText, kindBadge } from './event-text.js';
import { count, project, when } from './format.js';
import { openRawEvent } from './raw-event.js';
import { flash, go } from './router.js';
import { originSlot, showOrigins } from './team.js';
import { TYPE_TIPS } from './tips.js';
import type { MemoryRecord, SourcesPage } from './types.js';

const SOURCES_PAGE = 50;

function section(title: string, ...content: (Node | string | false)[]): HTMLElement {
  return h('section', {}, h('h2', {}, title), ...content);
}

function sources(record: MemoryRecord, title: string): HTMLElement {
  const list = h('ol', { class: 'sources' });
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Show more');
  const note = h('p', { class: 'status', role: 'status' });
  let offset = 0;
  const load = async () => {
    try {
      const page = await api<SourcesPage>(
        `/ui/api/memories/${record.record_id}/sources${qs({ limit: SOURCES_PAGE, offset })}`,
      );
      for (const item of page.items) {
        list.append(
          'missing' in item
            ? h('li', { class: 'missing' }, h('code', {}, item.event_id), ' — no longer stored')
            : h(
                'li',
                {},
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'source-row',
                    onclick: () => void openRawEvent(item.event_id),
                  },
                  h('time', { datetime: item.valid_time }, when(item.valid_time)),
                  kindBadge(item.kind),
                  h('span', { class: 'meta' }, item.surface),
                  h('span', { class: 'preview' }, eventText(item)),
                ),
              ),
        );
      }
      offset += page.items.length;
      more.hidden = offset >= page.total;
      note.textContent = `${count(page.total)} source event${page.total === 1 ? '' : 's'}; open one to see it exactly as stored.`;
    } catch (error) {
      note.textContent = describe(error);
      note.classList.add('error');
    }
  };
  more.addEventListener('click', () => void load());
  void load();
  return section(title, note, list, more);
}

/** A record a newer one retired: when, by which, why, and the button that undoes it. */
function supersededNotice(record: MemoryRecord, view: HTMLElement): HTMLElement | false {
  if (!record.superseded_by) return false;
  const newer = h('a', { href: `#/memories/${record.superseded_by}` }, record.superseded_by);
  const status = h('span', { class: 'status', role: 'status' });
  const undo = h('button', { type: 'button', class: 'secondary' }, 'Undo: make this current again');
  undo.addEventListener('click', async () => {
    try {
      const current = await api<MemoryRecord>(`/v1/memories/${record.record_id}/supersession`, {
        method: 'DELETE',
      });
      show(view, current, `“${record.title}” is current again.`);
    } catch (error) {
      status.textContent = describe(error);
      status.classList.add('error');
    }
  });
  // The newer record's title, once known (a link by id until then).
  void api<MemoryRecord>(`/v1/memories/${record.superseded_by}`)
    .then((r) => {
      newer.textContent = `“${r.title}”`;
    })
    .catch(() => undefined);
  return h(
    'div',
    { class: 'superseded-notice', role: 'note' },
    h(
      'p',
      {},
      h('strong', {}, 'Superseded'),
      record.superseded_at ? ` on ${when(record.superseded_at)}` : '',
      ' by ',
      newer,
      record.superseded_reason ? ` — ${record.superseded_reason}` : '',
      '. It is kept, and shown as out of date.',
    ),
    h('p', { class: 'actions' }, undo, status),
  );
}

/** The chain a record is part of, oldest first, when there is one (filled in when loaded). */
function chainList(record: MemoryRecord): HTMLElement {
  const box = section('Supersession chain', h('p', { class: 'status' }, 'Loading…'));
  box.hidden = true;
  void api<{ current: string; records: MemoryRecord[] }>(`/v1/memories/${record.record_id}/chain`)
    .then((chain) => {
      if (chain.records.length < 2) return;
      box.hidden = false;
      const list = h(
        'ol',
        { class: 'chain', 'aria-label': 'Supersession chain, oldest first' },
        chain.records.map((r) =>
          h(
            'li',
            { class: r.record_id === record.record_id ? 'this' : '' },
            h('time', { datetime: r.created_at }, when(r.created_at)),
            ' ',
            r.record_id === record.record_id
              ? h('strong', {}, r.title)
              : h('a', { href: `#/memories/${r.record_id}` }, r.title),
            r.record_id === chain.current
              ? h('span', { class: 'badge current' }, 'current')
              : h('span', { class: 'badge superseded' }, 'superseded'),
          ),
        ),
      );
      fill(box, h('h2', {}, 'Supersession chain'), list);
    })
    .catch(() => undefined);
  return box;
}

function show(view: HTMLElement, record: MemoryRecord, note = ''): void {
  const actions = h('div', { class: 'actions' });
  const message = h('p', { class: 'status', role: 'status' }, note);
  const edit = h('button', { type: 'button', class: 'secondary' }, 'Edit');
  const del = h('button', { type: 'button', class: 'danger' }, 'Delete');
  const resetActions = () => fill(actions, edit, del);
  edit.addEventListener('click', () => editForm(view, record));
  del.addEventListener('click', () => {
    const yes = h('button', { type: 'button', class: 'danger' }, 'Yes, delete it');
    const no = h('button', { type: 'button', class: 'secondary' }, 'Keep it');
    fill(actions, h('span', {}, 'Delete this memory for good? '), yes, no);
    no.addEventListener('click', () => {
      resetActions();
      del.focus();
    });
    yes.addEventListener('click', async () => {
      try {
        await api(`/v1/memories/${record.record_id}`, { method: 'DELETE' });
        flash(`Deleted “${record.title}”.`);
        go('#/memories');
      } catch (error) {
        message.textContent = describe(error);
        message.classList.add('error');
        resetActions();
      }
    });
    no.focus();
  });
  resetActions();
  const chain = chainOf(record);

  const list = (items: string[], empty: string, code = false) =>
    items.length
      ? h(
          'ul',
          {},
          items.map((item) => h('li', {}, code ? h('code', {}, item) : item)),
        )
      : h('p', { class: 'empty' }, empty);

  fill(
    view,
    h('a', { href: '#/memories', class: 'back' }, '← Memories'),
    h('div', { class: 'toolbar' }, h('h1', { class: 'record-title' }, record.title), actions),
    h(
      'p',
      { class: 'meta' },
      h(
        'span',
        {
          class: `badge type-${record.observation_type}`,
          title: TYPE_TIPS[record.observation_type] ?? record.observation_type,
        },
        record.observation_type.replace('_', ' '),
      ),
      ` ${project(record.namespace)} · ${record.strategy} · created ${when(record.created_at)}`,
      record.updated_at && ` · edited ${when(record.updated_at)}`,
      originSlot(record),
      ' · ',
      h('code', {}, record.record_id),
    ),
    message,
    supersededNotice(record, view),
    section('Summary', h('p', { class: 'summary' }, record.summary)),
    chain && chainSection(chain),
    // A summary's facts mirror the chain's key/value table: list them only once edited apart.
    (!chain || record.facts.join('\n') !== chainFactLines(chain).join('\n')) &&
      section('Facts', list(record.facts, 'No facts.')),
    section(
      'Concepts',
      record.concepts.length
        ? h(
            'p',
            { class: 'chips' },
            record.concepts.map((c) => h('span', { class: 'chip' }, c)),
          )
        : h('p', { class: 'empty' }, 'No concepts.'),
    ),
    section('Files', list(record.files_touched, 'No files.', true)),
    record.questions?.length ? section('Questions it answers', list(record.questions, '')) : false,
    chainList(record),
    sources(record, chain ? 'Covered events' : 'Source events'),
  );
  void showOrigins(view, [record]);
}

function editForm(view: HTMLElement, record: MemoryRecord): void {
  const error = h('p', { class: 'status error', role: 'alert', hidden: true });
  const form = h(
    'form',
    { class: 'edit' },
    h(
      'label',
      {},
      'Title',
      h('input', { name: 'title', required: true, maxlength: 200, value: record.title }),
    ),
    h(
      'label',
      {},
      'Summary',
      h('textarea', { name: 'summary', required: true, maxlength: 4000, rows: 8 }, record.summary),
    ),
    h(
      'label',
      {},
      'Facts, one per line',
      h('textarea', { name: 'facts', rows: 6 }, record.facts.join('\n')),
    ),
    error,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Save'),
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: () => show(view, record) },
        'Cancel',
      ),
    ),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    try {
      const updated = await api<MemoryRecord>(`/v1/memories/${record.record_id}`, {
        method: 'PATCH',
        body: {
          title: text('title'),
          summary: text('summary'),
          facts: text('facts')
            .split('\n')
            .map((f) => f.trim())
            .filter(Boolean),
        },
      });
      // A PATCH that answers with something other than the record: read it back.
      show(
        view,
        updated?.record_id ? updated : await api<MemoryRecord>(`/v1/memories/${record.record_id}`),
      );
    } catch (failure) {
      error.textContent = describe(failure);
      error.hidden = false;
    }
  });
  fill(
    view,
    h('a', { href: `#/memories/${record.record_id}`, class: 'back' }, '← Back'),
    h('h1', {}, 'Edit memory'),
    form,
  );
  form.querySelector('input')?.focus();
}

/** A teammate's record kept where it went into a context (team memory): read-only. */
function showTeamCopy(
  view: HTMLElement,
  copy: { record: MemoryRecord; author: string; project_id: string; seen_at: string },
): void {
  const r = copy.record;
  fill(
    view,
    h('a', { href: '#/memories', class: 'back' }, '← Memories'),
    h('h1', {}, r.title),
    h(
      'p',
      { class: 'meta' },
      `from ${copy.author} · team record of ${copy.project_id} · last in a context ${when(copy.seen_at)}`,
    ),
    h('p', {}, r.summary),
    r.facts.length > 0 && h('ul', {}, ...r.facts.map((fact) => h('li', {}, fact))),
  );
}

export function renderRecord(view: HTMLElement, recordId: string): void {
  fill(view, h('p', { class: 'status' }, 'Loading…'));
  api<MemoryRecord>(`/v1/memories/${encodeURIComponent(recordId)}`)
    .then((record) => show(view, record))
    .catch(async (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) {
        // Not a record of this machine: perhaps a teammate's that a retrieval injected.
        const copies = await api<{ items: Array<Parameters<typeof showTeamCopy>[1]> }>(
          `/ui/api/team-records?ids=${encodeURIComponent(recordId)}`,
        ).catch(() => undefined);
        const copy = copies?.items[0];
        if (copy) return showTeamCopy(view, copy);
      }
      throw error;
    })
    .catch((error: unknown) =>
      fill(
        view,
        h('a', { href: '#/memories', class: 'back' }, '← Memories'),
        h(
          'p',
          { class: 'status error' },
          error instanceof ApiError && error.status === 404
            ? 'This memory no longer exists: it was deleted, or the link is wrong.'
            : describe(error),
        ),
      ),
    );
}

import { api, describe } from './api.js';
import { askToForget, fill, h } from './dom.js';
import type { Event } from './types.js';

/** Opens an event exactly as stored, in a modal dialog (Esc closes it). */
export async function openRawEvent(eventId: string): Promise<void> {
  const pre = h('pre', { class: 'raw', tabindex: 0 }, 'Loading…');
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const dialog = h(
    'dialog',
    { class: 'raw-event', 'aria-label': `Event ${eventId}` },
    h('header', {}, h('h2', {}, 'Event ', h('code', {}, eventId)), close),
    pre,
  );
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  try {
    const event = await api<Event>(`/v1/events/${encodeURIComponent(eventId)}`);
    pre.textContent = JSON.stringify(event, null, 2);
    dialog.append(forgetSession(event, pre));
  } catch (error) {
    pre.textContent = describe(error);
    pre.classList.add('error');
  }
}

/** "Forget this session": asks inline, then deletes the session's events and their records. */
function forgetSession(event: Event, pre: HTMLElement): HTMLElement {
  const box = h('p', { class: 'actions' });
  const start = h('button', { type: 'button', class: 'danger' }, 'Forget this session…');
  const reset = () => fill(box, start);
  start.addEventListener('click', () => {
    const { yes, no } = askToForget(
      box,
      `Forget session ${event.session_id} (every event and the memories made from them) for good? `,
    );
    no.addEventListener('click', reset);
    yes.addEventListener('click', async () => {
      try {
        const done = await api<{ counts: { events: number; records: number } }>('/v1/forget', {
          method: 'POST',
          body: { session: event.session_id, namespace: event.namespace },
        });
        pre.textContent = `Forgot session ${event.session_id}: ${done.counts.events} events, ${done.counts.records} memories.`;
        box.remove();
      } catch (error) {
        fill(box, h('span', { class: 'error' }, describe(error)), start);
      }
    });
  });
  reset();
  return box;
}

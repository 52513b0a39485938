import { api, describe } from './api.js';
import { h } from './dom.js';
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
  } catch (error) {
    pre.textContent = describe(error);
    pre.classList.add('error');
  }
}

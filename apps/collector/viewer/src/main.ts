import { setToken, whenUnauthorized } from './api.js';
import { fill, h } from './dom.js';
import { feedStatus, onStatus, startFeed } from './feed.js';
import { renderHealth } from './health.js';
import { renderLive } from './live.js';
import { renderMemories } from './memories.js';
import { renderProjects } from './projects.js';
import { renderRecord } from './record.js';
import { currentRoute, flash } from './router.js';
import { STREAM_TIPS } from './tips.js';

const SCREENS = [
  ['live', 'Live'],
  ['memories', 'Memories'],
  ['projects', 'Projects'],
  ['health', 'Health'],
] as const;

const view = document.getElementById('view')!;
const notice = document.getElementById('notice')!;
const streamBadge = document.getElementById('stream')!;
let cleanup: (() => void) | undefined;

function showNotice(message: string | undefined, kind = 'info'): void {
  notice.hidden = !message;
  notice.className = `notice ${kind}`;
  notice.textContent = message ?? '';
}

function render(): void {
  cleanup?.();
  cleanup = undefined;
  const { path, params } = currentRoute();
  const screen = path[0] ?? 'live';
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav.main a')) {
    if (link.dataset['screen'] === screen) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  showNotice(flash());
  if (screen === 'memories' && path[1]) renderRecord(view, path[1]);
  else if (screen === 'memories') renderMemories(view, params);
  else if (screen === 'projects') cleanup = renderProjects(view);
  else if (screen === 'health') renderHealth(view);
  else cleanup = renderLive(view);
  document.title = `${SCREENS.find(([id]) => id === screen)?.[1] ?? 'Live'} · kiro-learn`;
}

function askForToken(): void {
  if (document.getElementById('token-form')) return;
  const form = h(
    'form',
    { id: 'token-form', class: 'notice warn' },
    h(
      'label',
      {},
      'This collector asks for its access token: ',
      h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true }),
    ),
    h('button', { type: 'submit' }, 'Use token'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    setToken(String(new FormData(form).get('token') ?? ''));
    location.reload();
  });
  notice.after(form);
}

function drawStatus(status = feedStatus()): void {
  const text = { live: 'live', connecting: 'connecting…', offline: 'offline, retrying' }[status];
  streamBadge.className = `stream ${status}`;
  streamBadge.textContent = text;
  streamBadge.title = STREAM_TIPS[status] ?? `Live stream: ${text}`;
}

fill(
  document.getElementById('nav')!,
  SCREENS.map(([id, label]) => h('a', { href: `#/${id}`, 'data-screen': id }, label)),
);
whenUnauthorized(askForToken);
onStatus(drawStatus);
drawStatus();
window.addEventListener('hashchange', render);
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  if (event.key !== '/' || target.closest('input, textarea, select, [contenteditable]')) return;
  const search = document.querySelector<HTMLInputElement>('input[type=search]');
  if (search) {
    event.preventDefault();
    search.focus();
  } else if (currentRoute().path[0] !== 'memories') {
    event.preventDefault();
    location.hash = '#/memories';
  }
});
render();
startFeed().catch((error: unknown) =>
  showNotice(
    `Could not load recent activity: ${error instanceof Error ? error.message : String(error)}`,
    'error',
  ),
);

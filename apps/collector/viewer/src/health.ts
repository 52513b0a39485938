import { api, describe } from './api.js';
import { fill, h, svg } from './dom.js';
import { bytes, count, duration, when } from './format.js';
import { CARD_TIPS } from './tips.js';
import type { Health, LatencyBucket } from './types.js';

const W = 640;
const H = 180;
const PAD = { left: 44, right: 12, top: 12, bottom: 24 };

function chart(buckets: LatencyBucket[]): Element {
  const max = Math.max(10, ...buckets.flatMap((b) => [b.p95 ?? 0, b.p50 ?? 0]));
  const x = (i: number) => PAD.left + ((W - PAD.left - PAD.right) * (i + 0.5)) / buckets.length;
  const y = (ms: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - ms / max);
  const line = (key: 'p50' | 'p95') => {
    const points = buckets.flatMap((b, i) => (b[key] === null ? [] : [`${x(i)},${y(b[key])}`]));
    return [
      svg('polyline', { class: `line ${key}`, points: points.join(' ') }),
      buckets.map((b, i) =>
        b[key] === null
          ? null
          : svg(
              'circle',
              { class: `dot ${key}`, cx: x(i), cy: y(b[key]), r: 3 },
              svg('title', {}, `${key} ${duration(b[key])} · ${count(b.count)} retrievals`),
            ),
      ),
    ];
  };
  const ticks = [0, max / 2, max];
  return svg(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      class: 'chart',
      role: 'img',
      'aria-label': 'Retrieval latency p50 and p95 over the last hour',
    },
    ticks.map((t) => [
      svg('line', { class: 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t) }),
      svg(
        'text',
        { class: 'axis', x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end' },
        `${Math.round(t)} ms`,
      ),
    ]),
    svg('text', { class: 'axis', x: PAD.left, y: H - 6 }, '60 min ago'),
    svg('text', { class: 'axis', x: W - PAD.right, y: H - 6, 'text-anchor': 'end' }, 'now'),
    line('p95'),
    line('p50'),
  );
}

function card(label: string, value: string | Node, hint?: string): HTMLElement {
  return h(
    'div',
    { class: 'card', ...(CARD_TIPS[label] ? { title: CARD_TIPS[label] } : {}) },
    h('span', { class: 'label' }, label),
    h('strong', {}, value),
    hint && h('small', {}, hint),
  );
}

/**
 * Semantic search: on (runtime, precision) or why not; prompts answered lexical only since
 * start, because the model ran out of its share of the budget, stand out as a warning.
 */
function semanticCard(semantic: NonNullable<Health['semantic']>): HTMLElement {
  const { used, timed_out, failed } = semantic.prompts;
  const fellBack = timed_out + failed;
  const engine = [semantic.runtime, semantic.precision].filter(Boolean).join(' ');
  const hint =
    fellBack > 0
      ? `${count(fellBack)} of ${count(used + fellBack)} prompts answered lexical only since start (${count(timed_out)} timed out, ${count(failed)} failed)`
      : semantic.state === 'on'
        ? `${engine}; every prompt since start searched by meaning`
        : (semantic.reason ?? '');
  const element = card('Semantic search', semantic.state, hint);
  element.classList.add('semantic');
  if (fellBack > 0) element.classList.add('warn');
  return element;
}

export function renderHealth(view: HTMLElement): void {
  const status = h('p', { class: 'status', role: 'status' }, 'Loading…');
  fill(view, h('div', { class: 'toolbar' }, h('h1', {}, 'Health')), status);
  api<Health>('/ui/api/health')
    .then((health) => {
      const total = health.latency.reduce((n, b) => n + b.count, 0);
      status.textContent = '';
      view.append(
        h(
          'div',
          { class: 'cards' },
          card('Version', health.version),
          card('Uptime', duration(health.uptime_s * 1000), `since ${when(health.started_at)}`),
          card('Database', bytes(health.db_bytes)),
          card('Extractor', h('code', {}, health.extractor)),
          card('Events', count(health.events)),
          card('Memories', count(health.memories), `${count(health.projects)} projects`),
          health.semantic ? semanticCard(health.semantic) : null,
          health.search_backlog
            ? card(
                'Search index',
                `${count(health.search_backlog)} to index`,
                'records still being indexed in the background; searches are slower until done',
              )
            : null,
        ),
        h(
          'section',
          {},
          h('h2', {}, 'Retrieval latency, last hour'),
          h(
            'p',
            { class: 'legend' },
            h('span', { class: 'key p50' }, 'p50'),
            h('span', { class: 'key p95' }, 'p95'),
            ` ${count(total)} retrievals in 5-minute slices`,
          ),
          total
            ? chart(health.latency)
            : h('p', { class: 'empty' }, 'No retrievals in the last hour.'),
        ),
      );
    })
    .catch((error: unknown) => {
      status.textContent = describe(error);
      status.classList.add('error');
    });
}

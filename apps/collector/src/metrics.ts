/**
 * Prometheus metrics in text exposition format, without a client library: a few
 * counters and histograms are all the collector needs.
 */

type Labels = Record<string, string>;

const ESCAPED = /[\\"\n]/;
const escapeValue = (v: string) =>
  v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** `k="v",…`: built on every increment, so plain values skip the escaping passes. */
function key(labels: Labels): string {
  let out = '';
  for (const k in labels) {
    const v = labels[k]!;
    out += `${out ? ',' : ''}${k}="${ESCAPED.test(v) ? escapeValue(v) : v}"`;
  }
  return out;
}

export class Counter {
  readonly #values = new Map<string, number>();
  readonly name: string;
  readonly help: string;

  constructor(name: string, help: string) {
    this.name = name;
    this.help = help;
  }

  inc(labels: Labels = {}, by = 1): void {
    const k = key(labels);
    this.#values.set(k, (this.#values.get(k) ?? 0) + by);
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [k, v] of this.#values) lines.push(`${this.name}${k ? `{${k}}` : ''} ${v}`);
    return lines.join('\n');
  }
}

export class Histogram {
  readonly #series = new Map<string, { counts: number[]; sum: number; count: number }>();
  readonly name: string;
  readonly help: string;
  readonly buckets: readonly number[];

  constructor(name: string, help: string, buckets: readonly number[]) {
    this.name = name;
    this.help = help;
    this.buckets = buckets;
  }

  observe(value: number, labels: Labels = {}): void {
    const k = key(labels);
    let s = this.#series.get(k);
    if (!s) {
      s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(k, s);
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [k, s] of this.#series) {
      const sep = k ? `${k},` : '';
      this.buckets.forEach((b, i) => {
        lines.push(`${this.name}_bucket{${sep}le="${b}"} ${s.counts[i]}`);
      });
      lines.push(`${this.name}_bucket{${sep}le="+Inf"} ${s.count}`);
      lines.push(`${this.name}_sum${k ? `{${k}}` : ''} ${s.sum}`);
      lines.push(`${this.name}_count${k ? `{${k}}` : ''} ${s.count}`);
    }
    return lines.join('\n');
  }
}

const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The collector's metrics. */
export function createMetrics() {
  return {
    requests: new Counter('kiro_learn_http_requests_total', 'HTTP requests by method and status.'),
    ingested: new Counter(
      'kiro_learn_ingest_events_total',
      'Events posted, by kind and outcome (stored, duplicate).',
    ),
    ingestSeconds: new Histogram(
      'kiro_learn_ingest_duration_seconds',
      'Time from request to stored event, retrieval excluded.',
      SECONDS,
    ),
    retrievalSeconds: new Histogram(
      'kiro_learn_retrieval_duration_seconds',
      'Inline retrieval latency, by outcome (ok, empty, timeout, error).',
      SECONDS,
    ),
    extractions: new Counter(
      'kiro_learn_extractions_total',
      'Extraction batches by outcome (ok, skipped, failed).',
    ),
    streamsDropped: new Counter(
      'kiro_learn_stream_clients_dropped_total',
      '/v1/stream clients disconnected because they stopped reading.',
    ),
    extractedRecords: new Counter(
      'kiro_learn_extracted_records_total',
      'Memory records stored by extraction.',
    ),
    rateLimited: new Counter(
      'kiro_learn_rate_limited_total',
      'Requests answered 429, by limit: address (too many wrong tokens from one address) or member (one member token past its request rate).',
    ),
    teamWrites: new Counter(
      'kiro_learn_team_writes_total',
      'Team record pushes and deletes, by op (push, delete) and outcome (stored, stale, deleted, missing, forbidden, conflict).',
    ),
  };
}
export type CollectorMetrics = ReturnType<typeof createMetrics>;

/** A gauge rendered from a value read at scrape time. */
export function renderGauge(name: string, help: string, samples: Array<[Labels, number]>): string {
  return renderSamples('gauge', name, help, samples);
}

/** A counter kept elsewhere (a running total), rendered at scrape time. */
export function renderCounter(
  name: string,
  help: string,
  samples: Array<[Labels, number]>,
): string {
  return renderSamples('counter', name, help, samples);
}

function renderSamples(
  type: 'gauge' | 'counter',
  name: string,
  help: string,
  samples: Array<[Labels, number]>,
): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [labels, v] of samples) {
    const k = key(labels);
    lines.push(`${name}${k ? `{${k}}` : ''} ${v}`);
  }
  return lines.join('\n');
}

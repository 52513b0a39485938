// The benchmark corpus: deterministic synthetic records over a Zipf vocabulary, and
// Zipf-drawn prompts. Shared by the package benchmark and the end-to-end one.
import { buildNamespace, type MemoryRecord, newRecordId, newUlid } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';

export const PROJECTS = 10;
const VOCABULARY = 30_000;
export const PROMPTS = 300;
export const WARMUP = 30;

// Deterministic: the same records and prompts on every run.
let seed = 42;
export function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const syllables = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'ze',
  'po',
  'qu',
  'ba',
  'de',
  'fi',
  'go',
  'hu',
];
const words = Array.from({ length: VOCABULARY }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length))
    word += syllables[n % syllables.length];
  return word;
});
// Zipf (s = 1): word rank r is drawn with probability ∝ 1/r, like natural text.
const cumulative: number[] = [];
words.reduce((sum, _, r) => {
  cumulative.push(sum + 1 / (r + 1));
  return sum + 1 / (r + 1);
}, 0);
function zipfWord(): string {
  const x = random() * cumulative.at(-1)!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return words[lo]!;
}
export const phrase = (n: number) => Array.from({ length: n }, zipfWord).join(' ');
export const namespaces = Array.from({ length: PROJECTS }, (_, i) =>
  buildNamespace('bench', `project-${i}`),
);

export function syntheticRecord(): MemoryRecord {
  const time = Date.now() - Math.floor(random() * 365 * 86_400_000);
  return {
    record_id: newRecordId(time),
    namespace: namespaces[Math.floor(random() * PROJECTS)]!,
    strategy: 'bench',
    title: phrase(6),
    summary: phrase(40),
    facts: [phrase(8), phrase(8)],
    concepts: [phrase(2), phrase(1)],
    files_touched: [`src/${zipfWord()}/${zipfWord()}.ts`],
    observation_type: 'discovery',
    source_event_ids: [newUlid(time)],
    created_at: new Date(time).toISOString(),
  };
}

export function stats(samples: number[]): { median: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { median: at(0.5), p99: at(0.99) };
}

/** Adds synthetic records until the store holds `size` of them; returns the new count. */
export async function loadRecords(
  storage: StorageBackend,
  from: number,
  size: number,
): Promise<number> {
  let count = from;
  while (count < size) {
    const batch = Array.from({ length: Math.min(5000, size - count) }, syntheticRecord);
    await storage.commitExtraction({
      namespace: batch[0]!.namespace,
      records: batch,
      eventIds: [],
    });
    count += batch.length;
  }
  return count;
}

/** A Zipf prompt of 12 words for a random project and one of 50 sessions. */
export function syntheticPrompt(): { namespace: string; prompt: string; sessionId: string } {
  return {
    namespace: namespaces[Math.floor(random() * PROJECTS)]!,
    prompt: phrase(12),
    sessionId: `s${Math.floor(random() * 50)}`,
  };
}

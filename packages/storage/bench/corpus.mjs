// The benchmarks' corpus: memory records of realistic length whose words follow a Zipf
// distribution over a 30k vocabulary (a few common English words, many rare ones), and
// prompts drawn the same way. Deterministic, so runs are comparable.
// Deterministic PRNG so runs are comparable.
let seed = 42;
export const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

const syllables = [
  'ka',
  'lo',
  'mi',
  'ren',
  'sto',
  'ver',
  'dax',
  'qui',
  'pel',
  'nor',
  'tu',
  'zen',
  'bri',
  'gal',
  'hom',
  'jet',
];
const english =
  'the a to of and in is for on with that this it be as at by from or an are was not but can should when what why how which user request error test file function config build deploy server client database query cache api route handler token session value type module import export update change fix add remove'.split(
    ' ',
  );
const vocabulary = [...english];
for (let i = 0; vocabulary.length < 30_000; i++) {
  let word = '';
  let n = i;
  do {
    word += syllables[n % syllables.length];
    n = Math.floor(n / syllables.length);
  } while (n > 0);
  vocabulary.push(`${word}${i % 7 === 0 ? 'ing' : i % 5 === 0 ? 'ed' : ''}`);
}
// Zipf(s = 1.07) over the vocabulary via its CDF.
const weights = vocabulary.map((_, r) => 1 / (r + 1) ** 1.07);
const total = weights.reduce((a, b) => a + b, 0);
const cdf = [];
let acc = 0;
for (const w of weights) {
  acc += w / total;
  cdf.push(acc);
}
export function word() {
  const u = random();
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo];
}
export const words = (n) => Array.from({ length: n }, word).join(' ');
const ulidChars = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let counter = 0;
export function ulid() {
  let id = '01J';
  let n = counter++;
  for (let i = 0; i < 23; i++) {
    id += ulidChars[n % 32];
    n = Math.floor(n / 32);
  }
  return id;
}
export const namespaces = Array.from({ length: 20 }, (_, i) => `/actor/dev${i}/project/repo${i}/`);
export function makeRecord(i) {
  return {
    record_id: `mr_${ulid()}`,
    namespace: namespaces[i % namespaces.length],
    strategy: 'builtin',
    title: words(7),
    summary: words(55),
    facts: [words(12), words(10), words(14)],
    concepts: [word(), word(), word()],
    files_touched: [`src/${word()}/${word()}.ts`, `test/${word()}.test.ts`],
    observation_type: 'discovery',
    source_event_ids: [ulid()],
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  };
}

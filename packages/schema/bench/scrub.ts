// Scrubbing benchmark: the cost the scrubber adds to every stored event, next to a
// baseline of the same run (a JSON round trip of the same event, which every ingest pays
// anyway), and its worst case on hostile input. Prints median and p99 per call.
// BENCH_RUNS sets the number of timed calls per case.
import { createScrubber, type Event, scrubEvent } from '@kiro-learn/schema';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 400);

function event(content: string): Event {
  return {
    event_id: '01JDQ3Z8N4V6X2K9R7T5M1P0AB',
    session_id: 'bench-session',
    actor_id: 'dev',
    namespace: '/actor/dev/project/payments-api/',
    schema_version: 1,
    kind: 'tool_use',
    body: {
      type: 'json',
      data: {
        tool_name: 'execute_bash',
        tool_input: { command: 'pnpm vitest run src/webhooks', cwd: '/home/dev/payments-api' },
        tool_response: { exit_code: 1, stdout: content },
      },
    },
    valid_time: '2026-11-20T09:14:03.120Z',
    source: { surface: 'kiro-cli', version: '1.2.0', client_id: 'bench' },
  };
}

const line =
  'FAIL src/webhooks/stripe.test.ts > rejects unsigned payloads: const token = req.headers["stripe-signature"]; expected 400, got 200\n';
const cases: Array<[string, Event]> = [
  ['tool_use, 4 KiB of test output', event(line.repeat(32))],
  ['tool_use, 256 KiB of test output', event(line.repeat(2048))],
  ['hostile: 256 KiB of "a.a.a."', event('a.'.repeat(128 * 1024))],
  ['hostile: 256 KiB of "password="', event('password='.repeat(29_127))],
];

const scrubber = createScrubber({ extraPatterns: ['ACME-\\d{6}'] });

function measure(fn: () => unknown): { median: number; p99: number } {
  for (let i = 0; i < Math.min(20, RUNS); i++) fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { median: at(0.5), p99: at(0.99) };
}

const ms = (n: number) => `${n.toFixed(3)} ms`;
console.log(`scrubEvent, ${RUNS} calls per case (baseline: JSON round trip of the same event)`);
for (const [name, input] of cases) {
  const baseline = measure(() => JSON.parse(JSON.stringify(input)));
  const scrub = measure(() => scrubEvent(input, scrubber));
  console.log(
    `${name.padEnd(36)} scrub median ${ms(scrub.median)} p99 ${ms(scrub.p99)} | baseline median ${ms(baseline.median)} p99 ${ms(baseline.p99)} | ${(scrub.median / baseline.median).toFixed(1)}×`,
  );
}

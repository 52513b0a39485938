// Turns as Claude Code reports them, through the built-in extractor and curation: a later
// turn that undid what an earlier one did retires its record, with no model and whatever
// words the agent used to say so.
import type { Event, MemoryRecord } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { createBuiltinExtractor, curateRecords } from '../src/index.js';
import { CLAUDE_CODE_SHOP, shimEvent } from './fixtures/events.js';

const { namespace: NAMESPACE, project: PROJECT } = CLAUDE_CODE_SHOP;
let clock = Date.parse('2026-05-01T09:00:00Z');

/** An event a minute after the one before. */
function event(kind: Event['kind'], body: Event['body'], session: string): Event {
  clock += 60_000;
  return shimEvent(CLAUDE_CODE_SHOP, kind, body, session, clock);
}
type Tool = [name: string, input: Record<string, unknown>, response?: unknown];
const edit = (file: string, before: string, after: string): Tool => [
  'Edit',
  { file_path: `${PROJECT}/${file}`, old_string: before, new_string: after },
];
const write = (file: string, content: string): Tool => [
  'Write',
  { file_path: `${PROJECT}/${file}`, content },
];
const bash = (command: string, stdout = ''): Tool => [
  'Bash',
  { command },
  { stdout, stderr: '', interrupted: false },
];

let sessions = 0;
function turn(prompt: string, tools: Tool[], answer: string): Event[] {
  const session = `s${sessions++}`;
  return [
    event('prompt', { type: 'text', content: prompt }, session),
    ...tools.map(([name, input, response]) =>
      event(
        'tool_use',
        {
          type: 'json',
          data: { tool_name: name, tool_input: input, tool_response: response ?? { ok: true } },
        },
        session,
      ),
    ),
    event('session_summary', { type: 'text', content: answer }, session),
  ];
}

/** Extracts and curates turns in order, as the collector does; the store at the end. */
async function store(...turns: Event[][]): Promise<MemoryRecord[]> {
  const extractor = createBuiltinExtractor();
  const stored = new Map<string, MemoryRecord>();
  for (const events of turns) {
    const { records } = await extractor.extract({ namespace: NAMESPACE, events, preceding: [] });
    const existing = [...stored.values()].filter((r) => r.superseded_by === undefined);
    for (const r of curateRecords({ fresh: records, existing }).records) stored.set(r.record_id, r);
  }
  return [...stored.values()];
}

const byTitle = (records: MemoryRecord[], start: string) =>
  records.find((r) => r.title.startsWith(start))!;

describe('a later turn that undid what an earlier one did retires its record (built-in)', () => {
  it('an edit that replaced what the earlier turn wrote, though the agent never says “instead”', async () => {
    const records = await store(
      turn(
        'set up structured logging with winston',
        [
          write(
            'src/log.ts',
            "import winston from 'winston';\nexport const log = winston.createLogger();\n",
          ),
        ],
        'Logs are JSON lines through winston.',
      ),
      turn(
        'winston is slow in the hot path, use pino',
        [
          edit(
            'src/log.ts',
            "import winston from 'winston';\nexport const log = winston.createLogger();",
            "import pino from 'pino';\nexport const log = pino();",
          ),
        ],
        'Logging goes through pino; about 5x cheaper per call.',
      ),
    );
    const older = byTitle(records, 'set up structured logging');
    const newer = byTitle(records, 'winston is slow');
    expect(older.superseded_by).toBe(newer.record_id);
    expect(older.superseded_reason).toBe(
      'same file src/log.ts; an edit replaced what it wrote (2 of 2 lines)',
    );
    expect(newer.superseded_by).toBeUndefined();
  });

  it('a changed value, each step retiring the one before', async () => {
    const records = await store(
      turn(
        'limit the image cache to 50 MB',
        [edit('src/cache.ts', 'maxSizeMB: 0', 'maxSizeMB: 50')],
        'Capped at 50 MB.',
      ),
      turn(
        'make the cache 200 MB',
        [edit('src/cache.ts', 'maxSizeMB: 50', 'maxSizeMB: 200')],
        'Cache limit 200 MB.',
      ),
      turn(
        'bring the image cache down to 100 MB',
        [edit('src/cache.ts', 'maxSizeMB: 200', 'maxSizeMB: 100')],
        'The image cache is capped at 100 MB.',
      ),
    );
    const [first, second, third] = ['limit the image', 'make the cache', 'bring the image'].map(
      (t) => byTitle(records, t),
    );
    expect(first!.superseded_by).toBe(second!.record_id);
    expect(second!.superseded_by).toBe(third!.record_id);
    expect(third!.superseded_by).toBeUndefined();
  });

  it('a deleted file, and a removed package the older record is about', async () => {
    const records = await store(
      turn(
        'set up navigation with a react-navigation stack',
        [write('app/navigation.tsx', 'export const Stack = createNativeStackNavigator();\n')],
        'Screens are in a native stack.',
      ),
      turn(
        'queue order emails in redis with bullmq',
        [
          write('src/jobs/queue.ts', "export const orders = new Queue('orders');\n"),
          bash('pnpm add bullmq ioredis'),
        ],
        'Order emails are queued through BullMQ.',
      ),
      turn(
        'migrate navigation to expo-router',
        [
          write('app/_layout.tsx', "export { Stack as default } from 'expo-router';\n"),
          bash('git rm app/navigation.tsx'),
        ],
        'Routing is file-based.',
      ),
      turn(
        'bullmq loses jobs on failover, use SQS',
        [
          write('src/jobs/sqs.ts', 'export const sqs = new SQSClient({});\n'),
          bash('pnpm remove bullmq ioredis && pnpm add @aws-sdk/client-sqs'),
        ],
        'The order emails go through SQS.',
      ),
    );
    expect(byTitle(records, 'set up navigation').superseded_reason).toBe(
      'its file app/navigation.tsx deleted',
    );
    expect(byTitle(records, 'queue order emails').superseded_reason).toBe(
      'removed the package bullmq',
    );
  });

  it('retires nothing for later work in the same file that leaves the earlier code standing', async () => {
    const records = await store(
      turn(
        'add an endpoint that returns one invoice by id',
        [
          write(
            'src/routes/invoices.ts',
            "router.get('/invoices/:id', async (req, res) => {\n  const invoice = await invoices.byId(req.params.id);\n  res.json(invoice);\n});\n",
          ),
        ],
        'Added GET /invoices/:id.',
      ),
      turn(
        'answer 404 for an unknown invoice',
        [
          edit(
            'src/routes/invoices.ts',
            '  res.json(invoice);',
            "  if (!invoice) return res.status(404).json({ error: 'not found' });\n  res.json(invoice);",
          ),
        ],
        'Unknown invoice ids get a 404.',
      ),
      turn(
        'the invoice endpoint crashes for an unknown id',
        [
          edit(
            'src/routes/invoices.ts',
            '  const invoice = await invoices.byId(req.params.id);',
            '  const invoice = await invoices.byId(req.params.id).catch(() => undefined);\n  if (invoice === undefined) return res.status(404).end();',
          ),
        ],
        'A lookup failure answers 404 now.',
      ),
      turn(
        'close idle pool clients after 30 seconds',
        [
          edit(
            'src/routes/invoices.ts',
            "router.get('/invoices/:id'",
            "router.get('/invoices/:id', timeout(30_000)",
          ),
        ],
        'The route times out after 30 s.',
      ),
    );
    expect(records.filter((r) => r.superseded_by !== undefined)).toEqual([]);
  });

  it('retires nothing for a fix that reworks the code an earlier turn wrote, its names and values kept', async () => {
    const records = await store(
      turn(
        'round invoice amounts to cents',
        [
          write(
            'src/money/round.ts',
            'export const roundAmount = (x: number) => Math.round(x * 100) / 100;\n',
          ),
        ],
        'roundAmount rounds to whole cents.',
      ),
      turn(
        'negative amounts round the wrong way',
        [
          edit(
            'src/money/round.ts',
            'export const roundAmount = (x: number) => Math.round(x * 100) / 100;',
            'export const roundAmount = (x: number) => Math.sign(x) * Math.round(Math.abs(x) * 100) / 100;',
          ),
        ],
        'Negative amounts round away from zero like positive ones.',
      ),
    );
    expect(records.filter((r) => r.superseded_by !== undefined)).toEqual([]);
  });

  it('reads a MultiEdit like an Edit', async () => {
    const records = await store(
      turn(
        'debounce sync by 500 ms',
        [edit('src/sync.ts', 'debounceMs: 0', 'debounceMs: 500')],
        'Sync waits 500 ms.',
      ),
      turn(
        'wait 2 s before syncing, and retry twice',
        [
          [
            'MultiEdit',
            {
              file_path: `${PROJECT}/src/sync.ts`,
              edits: [
                { old_string: 'debounceMs: 500', new_string: 'debounceMs: 2000' },
                { old_string: 'retries: 0', new_string: 'retries: 2' },
              ],
            },
          ],
        ],
        'Sync waits 2 s and retries twice.',
      ),
    );
    const older = byTitle(records, 'debounce sync');
    expect(older.superseded_by).toBe(byTitle(records, 'wait 2 s').record_id);
    expect(byTitle(records, 'wait 2 s').facts[0]).toMatch(
      /^Modified src\/sync\.ts: replaced `debounceMs: 500 retries: 0` with `debounceMs: 2000 retries: 2`/,
    );
  });

  it('keeps what the turn did to the code with its record, bounded', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `export const value${i} = ${i};`).join('\n');
    const [record] = await store(
      turn(
        'generate the constants',
        [write('src/constants.ts', long), bash('git rm src/old.ts && pnpm remove left-pad')],
        'Generated.',
      ),
    );
    const code = record!.metadata?.code as Record<string, unknown>;
    expect(code).toMatchObject({ deleted: ['src/old.ts'], removed: ['left-pad'] });
    expect((code.wrote as Record<string, string[]>)['src/constants.ts']).toHaveLength(40);
  });
});

import type { Event, MemoryRecord } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { createBuiltinExtractor, curateRecords } from '../src/index.js';
import { CLAUDE_CODE_SHOP, shimEvent } from './fixtures/events.js';

const { namespace: NAMESPACE, project: PROJECT } = CLAUDE_CODE_SHOP;
const SESSION = 'cc-session';

const event = (kind: Event['kind'], body: Event['body'], session = SESSION) =>
  shimEvent(CLAUDE_CODE_SHOP, kind, body, session);
const prompt = (content: string, session?: string) =>
  event('prompt', { type: 'text', content }, session);
const stop = (content: string, session?: string) =>
  event('session_summary', { type: 'text', content }, session);
/** A tool call as the Claude Code shim records it (a failure as PostToolUseFailure's error). */
function tool(name: string, input: Record<string, unknown>, response: unknown, session?: string) {
  return event(
    'tool_use',
    { type: 'json', data: { tool_name: name, tool_input: input, tool_response: response } },
    session,
  );
}
/** An Edit of `file` (in the project) replacing `before` with `after`, as Claude Code reports it. */
const edited = (file: string, before: string, after: string) =>
  tool(
    'Edit',
    { file_path: `${PROJECT}/${file}`, old_string: before, new_string: after },
    { filePath: `${PROJECT}/${file}` },
  );
const failure = (error: string) => ({ success: false, error });

const extract = async (events: Event[], preceding: Event[] = []) =>
  (await createBuiltinExtractor().extract({ namespace: NAMESPACE, events, preceding })).records;
const words = (title: string) => title.split(/\s+/).filter(Boolean).length;
const everyText = (records: MemoryRecord[]) =>
  records.flatMap((r) => [r.title, r.summary, ...r.facts]).join('\n');

describe('records worth reading (built-in extractor)', () => {
  it('never lists a tool as a file, and keeps the agent bookkeeping out', async () => {
    const records = await extract([
      prompt('add a cart total to the checkout page'),
      tool(
        'TodoWrite',
        { todos: [{ content: 'Add total', status: 'in_progress' }] },
        { oldTodos: [], newTodos: [] },
      ),
      tool('TaskCreate', { subject: 'Add total' }, { task: { id: '1' } }),
      edited('src/checkout.ts', 'total = 0', 'total = sum(items)'),
      stop('Added the cart total: checkout.ts now sums the line items.'),
    ]);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record!.files_touched).toEqual(['src/checkout.ts']);
    expect(everyText(records)).not.toMatch(/TodoWrite|TaskCreate/);
    expect(record!.title).toBe('add a cart total to the checkout page — edited src/checkout.ts');
  });

  it("keeps paths outside the project out of the project's files, and a failed read of one makes no error", async () => {
    const records = await extract([
      prompt('what did we decide about the session store?'),
      tool(
        'Read',
        { file_path: '/home/dev/.claude/projects/-home-dev-src-shop/memory/MEMORY.md' },
        failure('File does not exist.'),
      ),
      tool(
        'Read',
        { file_path: `${PROJECT}/docs/decisions.md` },
        { type: 'text', file: { filePath: `${PROJECT}/docs/decisions.md`, content: '...' } },
      ),
      tool(
        'Read',
        { file_path: '/tmp/scratch/notes.txt' },
        { type: 'text', file: { filePath: '/tmp/scratch/notes.txt', content: '...' } },
      ),
      stop(
        'We chose Redis for sessions in March; docs/decisions.md records why (horizontal scaling).',
      ),
    ]);
    expect(records.map((r) => r.observation_type)).toEqual(['session_summary']);
    expect(records[0]!.files_touched).toEqual(['docs/decisions.md']);
    expect(everyText(records)).not.toMatch(/\.claude|\/tmp\//);
  });

  it('makes one error record of a command that failed again and again', async () => {
    const error =
      'Exit code 1\n FAIL  src/cart.test.ts > totals\nAssertionError: expected 3 to be 4\n Tests  1 failed | 4 passed (5)';
    const records = await extract([
      prompt('fix the cart totals test'),
      tool('Bash', { command: 'npx vitest run src/cart.test.ts' }, failure(error)),
      tool(
        'Bash',
        { command: 'cd /home/dev/src/shop && npx vitest run src/cart.test.ts 2>&1 | tail -20' },
        failure(error),
      ),
      tool(
        'Bash',
        { command: 'npx vitest run src/cart.test.ts --reporter verbose' },
        failure(error),
      ),
      stop('The test still fails: the fixture has a stale price.'),
    ]);
    const errors = records.filter((r) => r.observation_type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.summary).toContain('It failed 3 times in the turn.');
    expect(errors[0]!.title).toMatch(/AssertionError in src\/cart\.test\.ts > totals — unresolved/);
  });

  it('titles a turn by what happened, with at least four words, never `Done.`; a turn that found nothing makes none', async () => {
    const records = await extract([
      prompt('continue'),
      edited('src/a.ts', 'a', 'b'),
      tool(
        'Bash',
        { command: 'npm test' },
        { stdout: 'Tests  3 passed (3)', stderr: '', interrupted: false },
      ),
      stop('Done.'),
      prompt('ok'),
      tool('Grep', { pattern: 'TODO' }, { mode: 'files_with_matches', filenames: [] }),
      stop('Perfect!'),
    ]);
    for (const record of records) {
      expect(words(record.title)).toBeGreaterThanOrEqual(4);
      expect(record.title).not.toMatch(/^(Done|Perfect)/);
    }
    expect(records.map((r) => r.title)).toEqual(['Edited src/a.ts; ran 1 command']);
  });

  it('takes the request of a turn an earlier extraction cut, from the events before the batch', async () => {
    const asked = prompt('migrate the orders table to uuid keys');
    const edit = edited('migrations/0007_orders_uuid.sql', 'id SERIAL', 'id UUID');
    const records = await extract(
      [
        tool('Bash', { command: 'npm run migrate' }, { stdout: 'migrated 0007', stderr: '' }),
        stop('The orders table now uses UUID primary keys (migration 0007).'),
      ],
      [asked, edit],
    );
    expect(records).toHaveLength(1);
    expect(records[0]!.title).toBe(
      'migrate the orders table to uuid keys — The orders table now uses UUID primary keys (migration 0007)',
    );
    expect(records[0]!.source_event_ids).not.toContain(asked.event_id);
  });

  it('carries a question-only turn before the batch into the record that answers it', async () => {
    const records = await extract(
      [
        prompt('yes do it'),
        edited('src/cache.ts', 'ttl: 60', 'ttl: 300'),
        stop('The cache TTL is now 300 s.'),
      ],
      [prompt('should we raise the cache ttl to five minutes?'), stop('')],
    );
    expect(records).toHaveLength(1);
    expect(records[0]!.title).toMatch(/^should we raise the cache ttl to five minutes\?/);
    expect(records[0]!.summary).toContain(
      'Request: should we raise the cache ttl to five minutes?',
    );
  });

  it('puts the questions of earlier question-only turns on the record as questions it answers', async () => {
    const records = await extract([
      prompt('why is checkout slow?'),
      stop(''),
      prompt('and where is the price cache configured?'),
      stop(''),
      prompt('fix both'),
      edited('src/cache.ts', 'ttl: 1', 'ttl: 300'),
      stop(
        'Raised the price cache TTL in src/cache.ts; checkout no longer refetches prices on every request.',
      ),
    ]);
    expect(records).toHaveLength(1);
    expect(records[0]!.questions).toEqual([
      'why is checkout slow?',
      'and where is the price cache configured?',
    ]);
  });

  it('files a reply to `ok do it` under the request before it, also as a question it answers', async () => {
    const records = await extract([
      prompt('why do the checkout requests time out at peak?'),
      tool(
        'Read',
        { file_path: `${PROJECT}/src/payments/client.ts` },
        {
          type: 'text',
          file: { filePath: `${PROJECT}/src/payments/client.ts`, content: 'timeout: 10_000' },
        },
      ),
      stop(
        'The payment client gives up after 10 s; 3-D Secure checks take up to 25 s at peak. Raising it to 30 s would fix it.',
      ),
      prompt('ok do it'),
      edited('src/payments/client.ts', 'timeout: 10_000', 'timeout: 30_000'),
      stop('Done, the timeout is 30 s now.'),
    ]);
    expect(records).toHaveLength(2);
    expect(records[1]!.title).toBe(
      'why do the checkout requests time out at peak? — edited src/payments/client.ts',
    );
    expect(records[1]!.questions).toEqual(['why do the checkout requests time out at peak?']);
    expect(records[0]!.questions).toBeUndefined();
  });
  it('a turn the agent answers after a compaction stays one record (extracted in two batches)', async () => {
    const first = [
      prompt('do something requiring multiple tools in one turn'),
      tool(
        'Write',
        {
          file_path: `${PROJECT}/numbers.py`,
          content: 'import random\nprint(random.randint(1, 9))\n',
        },
        { type: 'create', filePath: `${PROJECT}/numbers.py` },
      ),
      tool(
        'Bash',
        { command: 'python3 numbers.py' },
        { stdout: '7', stderr: '', interrupted: false },
      ),
      // Claude Code stopped with nothing to say, compacted, then answered.
      stop(''),
    ];
    const tail = [
      event('note', { type: 'json', data: { hook: 'SessionStart', source: 'compact' } }),
      stop(
        'I wrote `numbers.py` and ran it.\n\n- It printed 7, a random number from 1 to 9\n- The script needs only the standard library',
      ),
    ];
    const [part] = await extract(first);
    const [rest] = await extract(tail, first);
    expect(rest!.metadata?.turn_prompt_id).toBe(first[0]!.event_id);
    const curated = curateRecords({ fresh: [rest!], existing: [part!] });
    expect(curated.merged).toEqual([{ into: part!.record_id, from: rest!.record_id }]);
    expect(curated.records).toHaveLength(1);
    expect(curated.records[0]!.facts).toEqual(expect.arrayContaining(part!.facts));
  });
});

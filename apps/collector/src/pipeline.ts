import { createBuffer, type ExtractionRun, type PendingBuffer } from '@kiro-learn/buffer';
import { createExtractor, type Extractor } from '@kiro-learn/extractor';
import { bodyText, createScrubber, type Event, scrubRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { CollectorSettings } from './config/settings.js';
import { curate, injectedFor, precedingEvents, relatedRecords } from './curate.js';
import type { Logger } from './log/logger.js';

/** What a batch is about, as a search query: its prompts and the files its tools touched. */
function batchQuery(events: readonly Event[]): string {
  const parts: string[] = [];
  for (const event of events) {
    if (event.kind === 'prompt') parts.push(bodyText(event.body));
  }
  return parts.join(' ').slice(0, 2000);
}

/** The extraction side of the daemon: the extractor in use and the pending buffer. */
export interface Pipeline {
  readonly extractor: Extractor;
  readonly buffer: PendingBuffer;
}

/**
 * Builds the extractor the settings ask for (the ACP agent when its command is installed,
 * else the built-in rules, unless `extraction.mode` says otherwise) and the per-project
 * pending buffer that feeds it. `agents.signal` stops running agents (shutdown);
 * `agents.pidDir` records them for reapStaleAgents.
 */
export function createPipeline(
  storage: StorageBackend,
  settings: CollectorSettings,
  logger: Logger,
  agents: { signal?: AbortSignal; pidDir?: string } = {},
): Pipeline {
  const extractor = createExtractor({
    mode: settings.extraction.mode,
    command: settings.extraction.command,
    concurrency: settings.extraction.concurrency,
    timeoutMs: settings.extraction.timeoutMs,
    attempts: settings.extraction.attempts,
    ...agents,
  });
  // Events are scrubbed before they are stored, but a model can still write a secret (or
  // reassemble one): what it returns is scrubbed too, with the same patterns.
  const scrubber = createScrubber({ extraPatterns: settings.privacy.extraPatterns });
  const buffer = createBuffer({
    storage,
    extract: async (batch) => {
      // Context around the batch: the turns it continues and, for an LLM, the records it may
      // supersede. A failed read only loses context, never the extraction.
      const preceding = await precedingEvents(storage, batch.namespace, batch.events).catch(
        (error) => {
          logger.warn('reading the events before a batch failed', { error });
          return [];
        },
      );
      const memories =
        extractor.name === 'acp'
          ? await relatedRecords(storage, batch.namespace, [], batchQuery(batch.events)).catch(
              () => [],
            )
          : [];
      const result = await extractor.extract({
        ...batch,
        preceding,
        ...(memories.length ? { memories } : {}),
      });
      const fresh = result.records.map((record) => scrubRecord(record, scrubber));
      // What the agent was given for these turns: an answer that only restates it is no
      // record. A failed read only keeps such a record.
      const injected = await injectedFor(storage, batch.namespace, [
        ...preceding,
        ...batch.events,
      ]).catch((error) => {
        logger.warn('reading what was injected for a batch failed', { error });
        return new Map<string, Set<string>>();
      });
      // Near duplicates merged into what the project has, older records it retires linked.
      const curated = await curate(storage, batch.namespace, fresh, {
        ...(result.supersedes ? { named: new Map(Object.entries(result.supersedes)) } : {}),
        ...(injected.size > 0 ? { injected } : {}),
      });
      if (curated.merged.length || curated.superseded.length) {
        logger.info('curated', {
          namespace: batch.namespace,
          merged: curated.merged.length,
          superseded: curated.superseded.map((s) => ({
            record: s.recordId,
            by: s.supersededBy,
            reason: s.reason,
          })),
        });
      }
      return {
        records: curated.records,
        attempts: result.attempts,
        extractor: result.extractor,
      };
    },
    options: {
      thresholdBytes: settings.buffer.maxPendingBytes,
      idleMs: settings.buffer.idleMs,
      breakerFailures: settings.buffer.breakerFailures,
      ceilingBytes: settings.buffer.ceilingBytes,
      claimTtlMs: settings.extraction.claimTtlMs,
    },
    compaction: settings.buffer.compaction,
    ...(extractor.summarize
      ? { summarize: async (request) => scrubber.value(await extractor.summarize!(request)) }
      : {}),
    extractorName: extractor.name,
    onError: (error) => logger.error('extraction bookkeeping failed', { error }),
  });
  buffer.onExtraction((run: ExtractionRun) => {
    const line = {
      namespace: run.namespace,
      trigger: run.trigger,
      events: run.batchSize,
      records: run.records,
      ms: Math.round(run.durationMs),
    };
    if (run.status === 'failed') logger.warn('extraction failed', { ...line, error: run.error });
    else logger.info('extraction', line);
  });
  return { extractor, buffer };
}

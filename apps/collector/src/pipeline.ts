import { createBuffer, type ExtractionRun, type PendingBuffer } from '@kiro-learn/buffer';
import { createExtractor, type Extractor } from '@kiro-learn/extractor';
import { createScrubber, scrubRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { CollectorSettings } from './config/settings.js';
import type { Logger } from './log/logger.js';

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
      const result = await extractor.extract(batch);
      return {
        records: result.records.map((record) => scrubRecord(record, scrubber)),
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

import { availableParallelism } from 'node:os';
import { type Embedder, EmbeddingError, loadEmbedder, WASM_SLOWDOWN } from '@kiro-learn/embeddings';
import { embeddingText } from '@kiro-learn/retrieval';
import { openSqliteStorage } from '@kiro-learn/storage';
import { loadSettings } from '../config/load.js';
import { daemonFiles } from '../lifecycle/files.js';
import { line, parseCommandArgs } from './args.js';
import type { Command } from './types.js';

/** Records read at a time (the next page is read while this one embeds). */
const PAGE = 256;
/** Records a worker embeds and stores as one job. */
const SLICE = 32;
/** Models loaded at most (one per core; each holds ~60 MB). */
const MAX_WORKERS = 2;
/** Records to embed from which a second model pays for its load (a second or two). */
const SECOND_WORKER_AT = 200;

export const reindex: Command = {
  name: 'reindex',
  summary: 'embed every record that has no vector for the current model (resumable)',
  usage: `kiro-learn reindex [--keep-old]

Loads the embedding model the settings name (semantic.modelDir, or the built-in
all-MiniLM-L6-v2) once per core, in worker threads, and embeds every memory record that has
no vector for it, newest first, showing progress, the rate and the time left. Interrupt it
at any time: what is done is kept, and the next run embeds only what is left. Works with the collector running or stopped (a running
collector also embeds new and missing records by itself, in the background). Afterwards
the vectors of other models are deleted.
  --keep-old   keep the vectors of other models (to switch back without re-embedding)`,
  async run(args, io) {
    const { values } = parseCommandArgs('reindex', args, { 'keep-old': { type: 'boolean' } });
    const loaded = loadSettings(io.env);
    if (!loaded.config) {
      line(io.stderr, `kiro-learn reindex: invalid settings: ${loaded.errors.join('; ')}`);
      return 1;
    }
    const settings = loaded.config;
    if (!settings.semantic.enabled) {
      line(
        io.stderr,
        `kiro-learn reindex: semantic search is off (semantic.enabled is false in ${loaded.file}); turn it on first`,
      );
      return 1;
    }
    const load = () =>
      loadEmbedder({
        runtime: settings.semantic.runtime,
        precision: settings.semantic.precision,
        ...(settings.semantic.modelDir ? { modelDir: settings.semantic.modelDir } : {}),
      });
    const embedders: Embedder[] = [];
    try {
      embedders.push(await load());
    } catch (error) {
      const why = error instanceof EmbeddingError ? error.message : String(error);
      line(
        io.stderr,
        `kiro-learn reindex: the embedding model did not load: ${why}. Fix semantic.modelDir in ${loaded.file}, or remove it to use the built-in model`,
      );
      return 1;
    }
    const embedder = embedders[0]!;
    const storage = await openSqliteStorage({ path: daemonFiles(settings.home).database });
    const started = performance.now();
    let done = 0;
    try {
      const coverage = await storage.vectorCoverage(embedder.modelId);
      const total = coverage.records - coverage.withVector;
      const precision = embedder.runtime === 'wasm' ? 'fp32' : settings.semantic.precision;
      line(
        io.stdout,
        `${embedder.modelId} (${embedder.runtime} ${precision}): ${coverage.withVector} of ${coverage.records} records embedded, ${total} to go`,
      );
      if (embedder.runtime === 'wasm' && total > 0) {
        line(
          io.stdout,
          `the WASM engine is the slow path (${WASM_SLOWDOWN} slower than onnxruntime-node; hours for 100,000 records): reinstall with onnxruntime-node`,
        );
      }
      // A model per core for a long run, one thread each: independent texts scale better
      // across workers than one text across threads. Each is a worker thread.
      const cores = Math.min(MAX_WORKERS, availableParallelism());
      while (total >= SECOND_WORKER_AT && embedders.length < cores) {
        const more = await load().catch(() => undefined);
        if (!more) break;
        embedders.push(more);
      }
      const progress = progressBar(io.stdout, total, started);
      // Pages are read ahead, sorted by text length and cut into slices; each worker takes
      // the next slice as soon as it is free (no worker waits for the other at a page's
      // end) and embeds it as one batch job (runs of texts of about the same length), then
      // stores its vectors in one transaction. Interrupted (Ctrl-C), the slices under way
      // finish and are stored: the next run embeds only what is left.
      let stopping = false;
      const stop = () => {
        // A second Ctrl-C quits at once (the slices under way are embedded again next run).
        if (stopping) process.exit(130);
        stopping = true;
        if (io.stdout.isTTY) io.stdout.write('\n');
        line(
          io.stdout,
          'stopping once the records under way are stored (Ctrl-C again to quit now)',
        );
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      const pages = async function* () {
        const modelId = embedder.modelId;
        let page = await storage.recordsWithoutVector({ modelId, limit: PAGE });
        for (;;) {
          const cursor = page.nextCursor;
          const next =
            cursor === undefined
              ? undefined
              : storage.recordsWithoutVector({ modelId, limit: PAGE, cursor });
          next?.catch(() => {}); // awaited below; a failure then is the run's failure
          const texts = page.records.map((record) => ({ record, text: embeddingText(record) }));
          texts.sort((a, b) => a.text.length - b.text.length);
          for (let i = 0; i < texts.length; i += SLICE) yield texts.slice(i, i + SLICE);
          if (!next || stopping) return;
          page = await next;
        }
      };
      const slices = pages();
      await Promise.all(
        embedders.map(async (worker) => {
          for (;;) {
            if (stopping) return;
            const { value: slice, done: finished } = await slices.next();
            if (finished) return;
            const vectors = await worker.embed(
              slice.map((s) => s.text),
              { batch: true },
            );
            await storage.putVectors(
              embedder.modelId,
              slice.map(({ record }, i) => ({ recordId: record.record_id, vector: vectors[i]! })),
            );
            done += slice.length;
            progress(done);
          }
        }),
      );
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      if (stopping) {
        progress(done, true);
        const seconds = (performance.now() - started) / 1000;
        line(
          io.stdout,
          `interrupted: embedded ${done} records in ${seconds.toFixed(1)} s; ${total - done} left (run kiro-learn reindex again to continue)`,
        );
        return 130;
      }
      progress(done, true);
      const pruned = values['keep-old'] ? 0 : await storage.deleteVectorsExcept(embedder.modelId);
      const seconds = (performance.now() - started) / 1000;
      line(
        io.stdout,
        `embedded ${done} records in ${seconds.toFixed(1)} s (${seconds > 0 ? (done / seconds).toFixed(1) : done} records/s)${pruned > 0 ? `; deleted ${pruned} vectors of other models` : ''}`,
      );
      return 0;
    } finally {
      await Promise.all(embedders.map((e) => e.close()));
      await storage.close();
    }
  },
};

/**
 * A one-line bar redrawn in place on a terminal; elsewhere, a line every 10 %. Both give
 * the rate so far and the time left at that rate.
 */
function progressBar(
  out: NodeJS.WritableStream & { isTTY?: boolean },
  total: number,
  started: number,
) {
  let lastTenth = -1;
  return (done: number, final = false) => {
    if (total === 0) return;
    const share = Math.min(1, done / total);
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const pace =
      rate > 0 && done < total
        ? `, ${rate.toFixed(1)}/s, about ${duration((total - done) / rate)} left`
        : '';
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      out.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${(share * 100).toFixed(0)}%${pace}\u001b[K`,
      );
      if (final) out.write('\n');
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth > lastTenth || final) {
      if (tenth === lastTenth && final) return;
      lastTenth = tenth;
      line(out, `${done}/${total} (${tenth * 10}%${pace})`);
    }
  };
}

/** Seconds as `1 h 05 min`, `12 min`, or `40 s`. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

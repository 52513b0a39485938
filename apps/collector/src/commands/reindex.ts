import { EmbeddingError, loadEmbedder } from '@kiro-learn/embeddings';
import { embeddingText } from '@kiro-learn/retrieval';
import { openSqliteStorage } from '@kiro-learn/storage';
import { loadSettings } from '../config/load.js';
import { daemonFiles } from '../lifecycle/files.js';
import { line, parseCommandArgs } from './args.js';
import type { Command } from './types.js';

const PAGE = 32;

export const reindex: Command = {
  name: 'reindex',
  summary: 'embed every record that has no vector for the current model (resumable)',
  usage: `kiro-learn reindex [--keep-old]

Loads the embedding model the settings name (semantic.modelDir, or the built-in
all-MiniLM-L6-v2) and embeds every memory record that has no vector for it, newest first,
with a progress bar on a terminal. Interrupt it at any time: what is done is kept, and the
next run embeds only what is left. Works with the collector running or stopped (a running
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
    let embedder: Awaited<ReturnType<typeof loadEmbedder>>;
    try {
      embedder = await loadEmbedder({
        runtime: settings.semantic.runtime,
        ...(settings.semantic.modelDir ? { modelDir: settings.semantic.modelDir } : {}),
      });
    } catch (error) {
      const why = error instanceof EmbeddingError ? error.message : String(error);
      line(
        io.stderr,
        `kiro-learn reindex: the embedding model did not load: ${why}. Fix semantic.modelDir in ${loaded.file}, or remove it to use the built-in model`,
      );
      return 1;
    }
    const storage = await openSqliteStorage({ path: daemonFiles(settings.home).database });
    const started = performance.now();
    let done = 0;
    try {
      const coverage = await storage.vectorCoverage(embedder.modelId);
      const total = coverage.records - coverage.withVector;
      line(
        io.stdout,
        `${embedder.modelId} (${embedder.runtime}): ${coverage.withVector} of ${coverage.records} records embedded, ${total} to go`,
      );
      const progress = progressBar(io.stdout, total);
      let cursor: string | undefined;
      do {
        const page = await storage.recordsWithoutVector({
          modelId: embedder.modelId,
          limit: PAGE,
          ...(cursor !== undefined ? { cursor } : {}),
        });
        if (page.records.length > 0) {
          const vectors = await embedder.embed(page.records.map(embeddingText));
          await storage.putVectors(
            embedder.modelId,
            page.records.map((record, i) => ({ recordId: record.record_id, vector: vectors[i]! })),
          );
          done += page.records.length;
          progress(done);
        }
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      progress(done, true);
      const pruned = values['keep-old'] ? 0 : await storage.deleteVectorsExcept(embedder.modelId);
      const seconds = (performance.now() - started) / 1000;
      line(
        io.stdout,
        `embedded ${done} records in ${seconds.toFixed(1)} s (${seconds > 0 ? (done / seconds).toFixed(1) : done} records/s)${pruned > 0 ? `; deleted ${pruned} vectors of other models` : ''}`,
      );
      return 0;
    } finally {
      await embedder.close();
      await storage.close();
    }
  },
};

/** A one-line bar redrawn in place on a terminal; elsewhere, a line every 10 %. */
function progressBar(out: NodeJS.WritableStream & { isTTY?: boolean }, total: number) {
  let lastTenth = -1;
  return (done: number, final = false) => {
    if (total === 0) return;
    const share = Math.min(1, done / total);
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      out.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${(share * 100).toFixed(0)}%`,
      );
      if (final) out.write('\n');
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth > lastTenth || final) {
      if (tenth === lastTenth && final) return;
      lastTenth = tenth;
      line(out, `${done}/${total} (${tenth * 10}%)`);
    }
  };
}

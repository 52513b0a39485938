/**
 * Downloads the transcripts of sources.json that are not committed into cache/ (from
 * raw.githubusercontent.com, at the pinned commit, checked against their SHA-256). Nothing
 * in the test command needs them; the replay report uses them with `--all`.
 *
 *   node tests/replay/src/fetch.ts
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { CACHE, fileOf, sourceEntries } from './sources.ts';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

async function main(): Promise<number> {
  mkdirSync(CACHE, { recursive: true });
  let failed = 0;
  for (const entry of sourceEntries()) {
    if (entry.fixture) continue;
    const file = fileOf(entry);
    if (existsSync(file) && sha256(readFileSync(file)) === entry.sha256) {
      console.log(`have   ${entry.name}`);
      continue;
    }
    const url = `https://raw.githubusercontent.com/${entry.repo}/${entry.commit}/${entry.path}`;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = new Uint8Array(await res.arrayBuffer());
      if (sha256(body) !== entry.sha256) {
        throw new Error(`SHA-256 differs from sources.json (${sha256(body)})`);
      }
      writeFileSync(file, body);
      console.log(`got    ${entry.name} (${body.length} bytes)`);
    } catch (error) {
      failed++;
      const why =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      console.error(
        `cannot fetch ${entry.name} from ${url}: ${why}. Download it another way (it is ${entry.path} of github.com/${entry.repo} at ${entry.commit}) and save it as ${file}.`,
      );
    }
  }
  if (failed > 0) {
    console.error(
      `${failed} transcript(s) missing: the replay report runs without them (the committed fixtures always replay).`,
    );
    return 1;
  }
  return 0;
}

process.exitCode = await main();

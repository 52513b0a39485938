import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Event, LIMITS } from '@kiro-learn/schema';
import {
  type DeliveryOutcome,
  drainSpool,
  FAST_PATH_FILE_MARK,
  FAST_PATH_MARK,
  HOOK_ENTRIES,
  handleHook,
  hasSpooled,
  SHIM_SURFACES,
  type ShimSurface,
} from '@kiro-learn/shims';
import { type Context, Hono } from 'hono';
import { isLoopbackHost } from '../config/settings.js';
import type { AppContext } from '../context.js';
import { CollectorError, httpError } from '../errors.js';
import { readBytes } from '../http/body.js';
import { requestHeader } from '../http/node.js';
import { ingestEvent } from '../ingest.js';

/** The hook scripts' release, recorded in `source.version` as the scripts themselves do. */
const SHIMS_VERSION: string = (
  createRequire(import.meta.url)('@kiro-learn/shims/package.json') as { version: string }
).version;

/**
 * `POST /v1/hooks/:surface`: the hook launcher's fast path. The body is the agent's payload
 * exactly as the hook got it on stdin (any bytes: the mapping decides what they are), the
 * `x-kiro-learn-cwd` header the hook's working directory, `?arg=` the words after the
 * script on the hook's command line. The collector runs the same agent module the hook
 * script would (@kiro-learn/shims `handleHook`) and answers 200 with `FAST_PATH_MARK`, a
 * line break, and exactly what the hook prints; it deletes the launcher's copy of the
 * payload first (`x-kiro-learn-spill`). Anything else (an error status) sends the launcher
 * to the Node shim with the same bytes, which spools what cannot be stored.
 *
 * The bash launcher sends no body: `x-kiro-learn-payload-file` names its copy of stdin in
 * this data dir's `tmp/`, which the collector reads, and into which (same file, same open
 * file description: the hook holds it open) it writes what the hook prints, then deletes
 * the name and answers `FAST_PATH_FILE_MARK` alone. bash reads a file in blocks but a
 * socket one byte per system call, so the context never crosses the socket. The file is
 * rewritten only once the event is stored: an error answer leaves the payload for the
 * shim.
 *
 * Only for a collector on loopback: the mapping reads the hook's project from the disk
 * (git metadata, `.kiro-learn-ignore`, a Claude Code transcript), which only the hook's own
 * machine may ask of it.
 */
export function hookRoutes(ctx: AppContext): Hono {
  const app = new Hono();
  const home = ctx.settings.home;
  // The mapping's environment: this data dir, and nothing of the collector's own
  // (`KIRO_LEARN_ACTOR` and the like come from the hook; the launcher sends hooks that set
  // them to the shim).
  const env: NodeJS.ProcessEnv = { KIRO_LEARN_HOME: home, HOME: homedir() };
  let replaying: Promise<void> | undefined;

  app.post('/:surface', async (c) => {
    if (!isLoopbackHost(ctx.settings.host)) {
      throw httpError(
        403,
        'hooks post to a collector on this machine (loopback); this one listens on another address',
      );
    }
    const surface = c.req.param('surface') as ShimSurface;
    if (!SHIM_SURFACES.includes(surface) || !HOOK_ENTRIES[surface].stdin) {
      throw httpError(404, `no hook script takes a payload for ${JSON.stringify(surface)}`, {
        surfaces: SHIM_SURFACES.filter((s) => HOOK_ENTRIES[s].stdin),
      });
    }
    const cwdHeader = requestHeader(c, 'x-kiro-learn-cwd');
    if (!cwdHeader) {
      throw httpError(400, 'x-kiro-learn-cwd is required: the working directory of the hook');
    }
    // Header values arrive as latin1: the launcher sends the path's bytes as they are.
    const cwd = Buffer.from(cwdHeader, 'latin1').toString('utf8');
    const payloadFile = requestHeader(c, 'x-kiro-learn-payload-file');
    let file: PayloadFile | undefined;
    if (payloadFile !== undefined) {
      file = openPayloadFile(home, payloadFile);
      if (!file) {
        throw httpError(400, 'x-kiro-learn-payload-file names no payload of this data dir');
      }
    }
    try {
      return await answer(c, surface, cwd, file);
    } finally {
      if (file) closeSync(file.fd);
    }
  });

  async function answer(
    c: Context,
    surface: ShimSurface,
    cwd: string,
    file: PayloadFile | undefined,
  ): Promise<Response> {
    const stdin = file ? readPayloadFile(file) : await readBytes(c, LIMITS.requestBytes);
    const lines: string[] = [];
    let failed: unknown;
    const out = await handleHook(
      {
        surface,
        args: c.req.queries('arg') ?? [],
        stdin,
        env,
        cwd,
        stderr: (line) => lines.push(line.trimEnd()),
        version: SHIMS_VERSION,
      },
      async (prepared) => {
        // Through JSON, as the shim's POST sends it: both paths store the same bytes.
        const event = JSON.parse(JSON.stringify(prepared.event)) as Event;
        try {
          const answer = await ingestEvent(ctx, event, prepared.retrieval, { hook: true });
          const context = answer.retrieval?.context;
          return context ? context : undefined;
        } catch (error) {
          // A refusal (4xx) is the shim's "rejected": nothing stored, the hook still
          // answers. Anything else must reach the launcher, whose shim spools the event.
          if (error instanceof CollectorError && error.status < 500) {
            lines.push(
              `[kiro-learn] the collector refused the ${prepared.hook.hook} event: ${error.message}`,
            );
            return undefined;
          }
          failed = error;
          throw error;
        }
      },
    );
    if (failed !== undefined) throw failed;
    if (file) {
      // The answer replaces the payload in the file the hook holds open; the name goes.
      const bytes = Buffer.from(out ?? '');
      ftruncateSync(file.fd, 0);
      for (let at = 0; at < bytes.length; )
        at += writeSync(file.fd, bytes, at, bytes.length - at, at);
      rmSync(file.path, { force: true });
    }
    // The launcher's copy of the payload: it is done with it once this answer is marked, so
    // the collector deletes it and the hook spends no process on that. Only a file of the
    // launcher's own naming, in this data dir's tmp/.
    const spill = requestHeader(c, 'x-kiro-learn-spill');
    if (spill && /^hook\.\d{1,10}$/.test(spill)) rmSync(join(home, 'tmp', spill), { force: true });
    if (lines.length > 0) ctx.logger.debug('hook', { surface, messages: lines });
    // Events hooks spooled while this collector was away: the fast path never replays
    // them itself, so the collector does, one replay at a time, off the answer's path.
    if (!replaying && hasSpooled(home)) {
      replaying = replaySpooled(ctx).finally(() => {
        replaying = undefined;
      });
    }
    return c.text(file ? `${FAST_PATH_FILE_MARK}\n` : `${FAST_PATH_MARK}\n${out ?? ''}`, 200);
  }
  return app;
}

/** A hook's payload file, open for reading and rewriting. */
interface PayloadFile {
  path: string;
  fd: number;
  size: number;
}

/**
 * Opens `<home>/tmp/<name>` when `name` is of the launcher's own naming (`hook.<pid>`) and
 * it is a regular file (never through a link, never created); undefined otherwise. A
 * payload over the request limit is refused as a body that size is (413): the hook's
 * shim then reads it.
 */
function openPayloadFile(home: string, name: string): PayloadFile | undefined {
  if (!/^hook\.\d{1,10}$/.test(name)) return undefined;
  const path = join(home, 'tmp', name);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    closeSync(fd);
    return undefined;
  }
  if (stat.size > LIMITS.requestBytes) {
    closeSync(fd);
    throw httpError(413, `request body is larger than ${LIMITS.requestBytes} bytes`);
  }
  return { path, fd, size: stat.size };
}

/** The payload file's bytes (the launcher wrote them all before it asked). */
function readPayloadFile(file: PayloadFile): Buffer {
  const bytes = Buffer.alloc(file.size);
  let at = 0;
  while (at < bytes.length) {
    const n = readSync(file.fd, bytes, at, bytes.length - at, at);
    if (n === 0) break;
    at += n;
  }
  return bytes.subarray(0, at);
}

/** Delivers the hooks' spool through ingest, as a shim's replay would post it. */
async function replaySpooled(ctx: AppContext): Promise<void> {
  try {
    const result = await drainSpool(ctx.settings.home, async (event): Promise<DeliveryOutcome> => {
      try {
        await ingestEvent(ctx, event, undefined, { hook: true });
        return 'delivered';
      } catch (error) {
        return error instanceof CollectorError && error.status < 500 ? 'rejected' : 'retry';
      }
    });
    if (result.delivered + result.rejected > 0) ctx.logger.info('spool replayed', { ...result });
  } catch (error) {
    ctx.logger.warn('spool replay failed', { error });
  }
}

import type { IncomingMessage } from 'node:http';
import { LIMITS } from '@kiro-learn/schema';
import type { Context } from 'hono';
import { httpError } from '../errors.js';
import { incomingOf, requestHeader } from './node.js';

/**
 * How much of an oversized body is read and thrown away around the 413, as a multiple of
 * the cap. Closing a socket with unread bytes resets it, and a client that writes its
 * whole request before reading (curl, most libraries) would then see a reset instead of
 * the answer. Past this bound the connection is simply closed.
 */
const DISCARD_FACTOR = 4;

const tooLarge = (max: number, close: boolean) =>
  httpError(
    413,
    `request body is larger than ${max} bytes`,
    undefined,
    close ? { Connection: 'close' } : {},
  );

/** Whether Node closes this connection after the answer (the client asked, or HTTP/1.0). */
function closesAfterAnswer(incoming: IncomingMessage): boolean {
  const connection = incoming.headers.connection ?? '';
  if (/\bclose\b/i.test(connection)) return true;
  return incoming.httpVersionMinor === 0 && !/\bkeep-alive\b/i.test(connection);
}

/**
 * Throws the 413 for an oversized body at the right moment. On a connection that stays
 * open, at once: the rest is read and dropped afterwards (up to the bound, then the
 * connection is cut). On one that closes after the answer, only once the rest has been
 * read and dropped, so the close resets nothing.
 */
async function refuseOversized(
  incoming: IncomingMessage | undefined,
  maxBytes: number,
  read: number,
  declared?: number,
): Promise<never> {
  const limit = DISCARD_FACTOR * maxBytes;
  if (!incoming || (declared ?? 0) > limit) throw tooLarge(maxBytes, true);
  const drained = discard(incoming, read, limit);
  if (closesAfterAnswer(incoming)) throw tooLarge(maxBytes, !(await drained));
  throw tooLarge(maxBytes, false);
}

/**
 * Reads and drops the rest of a request body. Resolves true once it has ended, false
 * when it passed `limit` bytes in all (the socket is then destroyed) or broke off.
 */
function discard(incoming: IncomingMessage, read: number, limit: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (incoming.complete) return resolve(true);
    let total = read;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit) return;
      incoming.off('data', onData);
      incoming.socket?.destroy();
      resolve(false);
    };
    incoming.on('data', onData);
    incoming.once('end', () => resolve(true));
    incoming.once('close', () => resolve(incoming.complete));
    incoming.on('error', () => resolve(false)); // a client hanging up mid-body is not our error
    incoming.resume();
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses a JSON request body once. Refuses more than `maxBytes` (413, answered
 * as soon as the cap is crossed, or at once for a declared Content-Length over it; the
 * rest is discarded up to a bound so the answer is not lost to a reset), bytes that are
 * not UTF-8, and documents nested deeper than `LIMITS.jsonDepth` (400, before parsing).
 */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  const bytes = await readBytes(c, maxBytes);
  if (bytes.length === 0) throw httpError(400, 'request body is empty; send a JSON document');
  if (nestsDeeperThan(bytes, LIMITS.jsonDepth)) {
    throw httpError(
      400,
      `request body nests deeper than ${LIMITS.jsonDepth} levels`,
      'arrays and objects may nest at most this deep, counting the document itself',
    );
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw httpError(400, 'request body is not valid UTF-8', 'send UTF-8 encoded JSON');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw httpError(400, 'request body is not valid JSON', (error as Error).message);
  }
}

/**
 * Reads a request body as bytes, whatever they are (`POST /v1/hooks` takes an agent's
 * payload as the agent sent it). Refuses more than `maxBytes` like readJson.
 */
export async function readBytes(c: Context, maxBytes: number): Promise<Buffer> {
  const incoming = incomingOf(c);
  const declared = Number(requestHeader(c, 'content-length') ?? 0);
  if (declared > maxBytes) await refuseOversized(incoming, maxBytes, 0, declared);
  return incoming ? readIncoming(incoming, maxBytes) : readWeb(c, maxBytes);
}

/**
 * Whether a JSON text opens more than `max` arrays or objects at once. One pass over the
 * bytes, no recursion: brackets inside strings are text. (UTF-8 continuation bytes are
 * never ASCII, so scanning bytes is exact.)
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c)
        i++; // backslash: skip the escaped byte
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return false;
}

/** Reads straight from Node's request stream: no web-stream copies on the hot path. */
function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        chunks.length = 0;
        refuseOversized(incoming, maxBytes, size).catch(reject);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(httpError(400, 'request body could not be read', error.message));
    };
    const onClose = () => {
      if (incoming.complete) return;
      cleanup();
      reject(httpError(400, 'request body was cut off'));
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    if (incoming.readableEnded) onEnd();
  });
}

async function readWeb(c: Context, maxBytes: number): Promise<Buffer> {
  const body = c.req.raw.body;
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes, true);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

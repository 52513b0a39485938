import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { httpError } from '../errors.js';
import { incomingOf, requestHeader } from './node.js';

// Closing the connection is how a 413 avoids reading the rest of an oversized body.
const tooLarge = (max: number) =>
  httpError(413, `request body is larger than ${max} bytes`, undefined, { Connection: 'close' });

/**
 * Reads and parses a JSON request body once, refusing more than `maxBytes` without
 * reading the rest: a declared Content-Length over the cap is refused before any byte
 * is read, a chunked body as soon as it crosses the cap.
 */
export async function readJson(c: Context, maxBytes: number): Promise<unknown> {
  const declared = requestHeader(c, 'content-length');
  if (declared !== undefined && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  const incoming = incomingOf(c);
  const bytes = incoming ? await readIncoming(incoming, maxBytes) : await readWeb(c, maxBytes);
  if (bytes.length === 0) throw httpError(400, 'request body is empty; send a JSON document');
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw httpError(400, 'request body is not valid JSON', (error as Error).message);
  }
}

/** Reads straight from Node's request stream: no web-stream copies on the hot path. */
function readIncoming(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        incoming.pause();
        reject(tooLarge(maxBytes));
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
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

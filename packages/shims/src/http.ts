import { connect } from 'node:net';
import type { CollectorAddress } from '@kiro-learn/schema/node';

/** A collector answer: status and raw body. */
export interface HttpAnswer {
  /** HTTP status. */
  status: number;
  /** Response body as text. */
  body: string;
  /** The response head (status line and headers) as received. */
  head: string;
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * One HTTP/1.1 request to the collector, written straight onto a node:net socket. Not
 * node:http: loading it and building its client machinery costs a hook process more
 * start-up time than the rest of the hook's own code, and the collector is ours, so one
 * request with `Connection: close` (the body ends where the connection does, or is chunked)
 * is all the protocol needed. Rejects on a network error, a malformed answer, or after
 * `timeoutMs` in total; never keeps the process alive afterwards.
 */
export function send(
  address: CollectorAddress,
  method: 'GET' | 'POST',
  path: string,
  body: string | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}:${address.port}\r\naccept: application/json\r\nconnection: close\r\n`;
    if (body !== undefined) {
      head += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    }
    if (address.token) {
      if (/[\r\n]/.test(address.token)) throw new Error('the token has a line break');
      head += `authorization: Bearer ${address.token}\r\n`;
    }
    const socket = connect({ host: address.host, port: address.port });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) return reject(error);
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (malformed) {
        reject(malformed);
      }
    };
    const timer = setTimeout(
      () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        socket.destroy(new Error('the answer is too large'));
        return;
      }
      chunks.push(chunk);
      // The server's close may come a loop turn later: a hook need not wait for it, and
      // with the whole answer read, closing needs none of an orderly end's stream steps.
      if (isComplete(chunks.length === 1 ? chunk : Buffer.concat(chunks))) {
        finish();
        socket.destroy();
      }
    });
    socket.on('end', () => finish());
    socket.on('error', finish);
    socket.write(`${head}\r\n${body ?? ''}`);
  });
}

const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/** True once a response with a Content-Length has all of its body. */
function isComplete(raw: Buffer): boolean {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return false;
  const length = CONTENT_LENGTH.exec(raw.toString('latin1', 0, headEnd));
  return length !== null && raw.length - headEnd - 4 >= Number(length[1]);
}

/** Status and body of a complete HTTP/1.1 response. */
function parseAnswer(raw: Buffer): HttpAnswer {
  const headEnd = raw.indexOf('\r\n\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(raw.toString('latin1', 0, 16));
  if (headEnd < 0 || !status) throw new Error('the collector sent a malformed HTTP answer');
  const head = raw.toString('latin1', 0, headEnd);
  let body = raw.subarray(headEnd + 4);
  const length = CONTENT_LENGTH.exec(head);
  if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) body = dechunk(body);
  else if (length) body = body.subarray(0, Number(length[1]));
  return { status: Number(status[1]), body: body.toString('utf8'), head };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = data.indexOf('\r\n', at);
    // parseInt stops at a chunk extension (`1a;name=value`).
    const size = lineEnd < 0 ? 0 : Number.parseInt(data.toString('latin1', at, lineEnd), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 4 + size;
  }
}

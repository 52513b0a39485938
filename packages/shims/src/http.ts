import { request } from 'node:http';
import type { CollectorAddress } from '@kiro-learn/schema/node';

/** A collector answer: status and raw body. */
export interface HttpAnswer {
  /** HTTP status. */
  status: number;
  /** Response body as text (capped). */
  body: string;
}

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * One request to the collector over node:http (fetch costs start-up time). Rejects on a
 * network error or after `timeoutMs` in total; never keeps the process alive afterwards.
 */
export function send(
  address: CollectorAddress,
  method: 'GET' | 'POST',
  path: string,
  body: string | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json', connection: 'close' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    if (address.token) headers['authorization'] = `Bearer ${address.token}`;
    const req = request(
      { host: address.host, port: address.port, method, path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', fail);
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    function fail(error: Error): void {
      clearTimeout(timer);
      reject(error);
    }
    req.on('error', fail);
    req.end(body);
  });
}

import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestError } from '@hono/node-server';
import { httpError } from '../errors.js';
import { errorResponse } from './respond.js';

/**
 * Answers what Node's HTTP parser refuses before the app ever sees a request (headers
 * too large, a malformed request line or header, conflicting lengths, a request that
 * timed out) with the same JSON `{error, details}` body as every other refusal. Node's
 * own answer has an empty body. Registered as the server's `clientError` listener.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection, or one whose answer has begun, can only be closed.
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    ?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || started) {
    socket.destroy();
    return;
  }
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request timed out']
        : [400, 'malformed HTTP request'];
  const body = JSON.stringify({
    error: message,
    details: `${error.code ?? 'error'}: ${error.message}`,
  });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/**
 * The adapter's own refusals (no Host header, an invalid one, a URL it cannot build)
 * answer 400 with the JSON shape; anything else that escapes the app is a 500.
 */
export function answerRequestError(error: unknown): Response {
  if (error instanceof RequestError) {
    return errorResponse(httpError(400, 'malformed HTTP request', error.message));
  }
  return errorResponse(error);
}

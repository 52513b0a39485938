import { authHeaders } from './api.js';

export interface StreamMessage {
  /** The SSE `event:` name (`message` when none). */
  type: string;
  data: unknown;
}

export type StreamStatus = 'connecting' | 'live' | 'offline';

/**
 * Follows the collector's `/v1/stream` server-sent events. Read with fetch rather than
 * EventSource so a bearer token can travel in a header; reconnects with a growing pause.
 * Returns a function that stops it.
 */
export function follow(
  url: string,
  onMessage: (message: StreamMessage) => void,
  onStatus: (status: StreamStatus) => void,
): () => void {
  const abort = new AbortController();
  let lastId: string | undefined;
  let pause = 500;

  const dispatch = (block: string) => {
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') lastId = value;
    }
    if (data.length === 0) return;
    const text = data.join('\n');
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: hand over the text
    }
    onMessage({ type, data: parsed });
  };

  const run = async () => {
    while (!abort.signal.aborted) {
      onStatus('connecting');
      try {
        const response = await fetch(url, {
          headers: {
            Accept: 'text/event-stream',
            ...authHeaders(),
            ...(lastId ? { 'Last-Event-ID': lastId } : {}),
          },
          signal: abort.signal,
        });
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        onStatus('live');
        pause = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          const blocks = buffer.split(/\r?\n\r?\n/);
          buffer = blocks.pop() ?? '';
          for (const block of blocks) dispatch(block);
        }
      } catch {
        // dropped or refused: wait, then reconnect
      }
      if (abort.signal.aborted) return;
      onStatus('offline');
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 15_000);
    }
  };
  void run();
  return () => abort.abort();
}

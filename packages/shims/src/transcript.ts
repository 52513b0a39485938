import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The tail read from a transcript: the last answer sits at its end, the file can be huge. */
const TAIL_BYTES = 1024 * 1024;

/**
 * The text of the last assistant message in a Claude Code JSONL transcript, or undefined
 * when the file is missing, unreadable or has none.
 */
export function lastAssistantText(path: string): string | undefined {
  let tail: string;
  try {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      tail = buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const lines = tail.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = assistantText(lines[i]!);
    if (text) return text;
  }
  return undefined;
}

function assistantText(line: string): string | undefined {
  if (!line.includes('"assistant"')) return undefined;
  let entry: { type?: unknown; message?: { role?: unknown; content?: unknown } };
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined; // the first line of the tail is usually cut
  }
  if (entry?.type !== 'assistant' && entry?.message?.role !== 'assistant') return undefined;
  const content = entry.message?.content;
  if (typeof content === 'string') return content.trim() || undefined;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .filter((part) => part?.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n')
    .trim();
  return text || undefined;
}

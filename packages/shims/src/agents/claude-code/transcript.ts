import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { ClaudeCodeTranscriptLine } from './payload.js';

/** The tail read from a transcript: the last answer sits at its end, the file can be huge. */
const TAIL_BYTES = 1024 * 1024;

/**
 * The text of the main agent's last assistant message in a Claude Code JSONL transcript,
 * or undefined when the file is missing, unreadable, not a regular file, or has none.
 * Sub-agent lines (`isSidechain: true`) are skipped: they are not the main agent's answer.
 * Opened non-blocking and read only when a regular file: a FIFO or device at that path
 * must never hold the hook.
 */
export function lastAssistantText(path: string): string | undefined {
  let tail: string;
  try {
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return undefined;
      const length = Math.min(stat.size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, stat.size - length);
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
  let entry: Partial<ClaudeCodeTranscriptLine> | null;
  try {
    entry = JSON.parse(line);
  } catch {
    return undefined; // the first line of the tail is usually cut
  }
  if (!entry || entry.isSidechain === true) return undefined;
  if (entry.type !== 'assistant' && entry.message?.role !== 'assistant') return undefined;
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

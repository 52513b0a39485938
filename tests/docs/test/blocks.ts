/** A fenced code block of a Markdown page. */
export interface Block {
  /** The fence's language (`sh`, `text`, `json`, …; empty when none). */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The lines between the fences. */
  body: string[];
}

/** One command of a ```sh block, as bash will run it. */
export interface Command {
  /** The text handed to `bash -c` (continuation lines and heredoc bodies included). */
  text: string;
  /** 1-based line in the page where it starts. */
  line: number;
  /** The exit code a `# exits N` comment declares; 0 otherwise. */
  exits: number;
}

/** How a page marks a ```sh block the test must not run, followed by the reason. */
export const SKIP_MARK = '# not run by the docs test:';

/** Fenced blocks at the top level of a Markdown page. */
export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  for (const [index, text] of markdown.split('\n').entries()) {
    if (!open) {
      const fence = /^```(\S*)/.exec(text);
      if (fence) open = { lang: fence[1]!, line: index + 1, body: [] };
    } else if (!/^```\s*$/.test(text)) open.body.push(text);
    else {
      blocks.push(open);
      open = undefined;
    }
  }
  if (open) throw new Error(`unclosed code block at line ${open.line}`);
  return blocks;
}

/** The reason a block is marked not to run, or undefined when it runs. */
export function skipReason(block: Block): string | undefined {
  const first = block.body[0]?.trim() ?? '';
  return first.startsWith(SKIP_MARK) ? first.slice(SKIP_MARK.length).trim() : undefined;
}

/**
 * Splits a ```sh block into commands: one per line, except that a line ending in `\`
 * continues on the next, and a heredoc (`<<'EOF'`) runs to its terminator. Lines that
 * are only comments are not commands.
 */
export function commands(block: Block): Command[] {
  const out: Command[] = [];
  const lines = block.body;
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let text = lines[i]!;
    if (/^\s*(#|$)/.test(text)) continue;
    while (/\\$/.test(text) && i + 1 < lines.length) text += `\n${lines[++i]}`;
    const heredoc = /<<-?\s*(['"]?)(\w+)\1/.exec(text);
    if (heredoc) {
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== heredoc[2]) text += `\n${lines[++i]}`;
      if (i + 1 < lines.length) text += `\n${lines[++i]}`;
    }
    const exits = /#[^\n]*\bexits (\d+)\b/.exec(text);
    out.push({ text, line: block.line + 1 + start, exits: exits ? Number(exits[1]) : 0 });
  }
  return out;
}

/**
 * What a turn did to the code, kept with its record so that a later turn can tell, without
 * a model, that it undid what this one did: the lines its edits wrote and the lines they
 * replaced (per file), the files its commands deleted, the packages they removed.
 *
 * The built-in extractor writes it as `metadata.code` (scrubbed like every string of a
 * record, bounded); curation reads it (codeSupersession). Records without it (older ones,
 * other extractors) simply never match these rules.
 */
import type { MemoryRecord } from '@kiro-learn/schema';

export interface CodeChanges {
  /** Per project file: the lines the turn's edits and writes left in it. */
  wrote?: Record<string, string[]>;
  /** Per project file: the lines the turn's edits replaced or removed. */
  replaced?: Record<string, string[]>;
  /** Project files a command deleted (`git rm`, `rm`). */
  deleted?: string[];
  /** Packages a command removed (`pnpm remove`, `npm uninstall`, `pip uninstall`, …). */
  removed?: string[];
}

const MAX_FILES = 12;
const MAX_LINES = 40;
const MAX_LINE = 160;
const MAX_NAMES = 20;

/**
 * The lines of a text worth comparing: trimmed, whitespace collapsed, without blank lines
 * and lines of punctuation alone (`};`, `)`), which every file has.
 */
export function codeLines(text: string): string[] {
  const lines = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (!/[\p{L}\p{N}]/u.test(line)) continue;
    lines.add(line.slice(0, MAX_LINE));
    if (lines.size >= MAX_LINES) break;
  }
  return [...lines];
}

/** A command's words, without quotes. */
const words = (command: string) =>
  command
    .split(/\s+/)
    .map((w) => w.replace(/^['"]|['"]$/g, ''))
    .filter(Boolean);

/** Project files a shell command deletes: `git rm [-r] a b`, `rm [-rf] a`. */
export function deletedBy(command: string): string[] {
  const out: string[] = [];
  for (const part of command.split(/&&|\|\||;|\|/)) {
    const w = words(part.trim());
    const at = w[0] === 'git' && w[1] === 'rm' ? 2 : w[0] === 'rm' ? 1 : -1;
    // `git rm --cached` stops tracking a file and leaves it in place.
    if (at < 0 || w.includes('--cached')) continue;
    for (const arg of w.slice(at)) {
      if (arg.startsWith('-') || arg.startsWith('/') || arg.includes('*') || arg === '.') continue;
      out.push(arg.replace(/^\.\//, ''));
    }
  }
  return out;
}

/** `pnpm remove a b`, `npm uninstall a`, `yarn remove a`, `pip uninstall -y a`, `poetry remove a`, `cargo remove a`, `bun remove a`. */
const REMOVE = /^(?:pnpm|npm|yarn|bun|poetry|cargo|uv|pip3?|gem|composer)$/;
const REMOVE_VERB = /^(?:remove|rm|uninstall|un)$/;

/** Packages a shell command removes from the project. */
export function removedBy(command: string): string[] {
  const out: string[] = [];
  for (const part of command.split(/&&|\|\||;|\|/)) {
    const w = words(part.trim());
    let i = 0;
    if (w[0] === 'python' && w[1] === '-m') i = 2;
    if (!REMOVE.test(w[i] ?? '') || !REMOVE_VERB.test(w[i + 1] ?? '')) continue;
    for (const arg of w.slice(i + 2)) {
      if (arg.startsWith('-')) continue;
      // `@scope/name@1.2` → `@scope/name`; `name==1.0` → `name`.
      const name = arg.replace(/(?<=.)@[^/]*$/, '').replace(/[=<>~!].*$/, '');
      if (name) out.push(name.toLowerCase());
    }
  }
  return out;
}

/** What a turn's edits and commands did, bounded, or undefined when it did nothing of that. */
export function codeChanges(
  edits: ReadonlyArray<{ files: readonly string[]; before?: string; after?: string }>,
  commands: readonly string[],
): CodeChanges | undefined {
  const wrote: Record<string, string[]> = {};
  const replaced: Record<string, string[]> = {};
  const add = (into: Record<string, string[]>, file: string, lines: string[]) => {
    if (lines.length === 0) return;
    if (!(file in into) && Object.keys(into).length >= MAX_FILES) return;
    into[file] = [...new Set([...(into[file] ?? []), ...lines])].slice(0, MAX_LINES);
  };
  for (const edit of edits) {
    const file = edit.files[0];
    if (file === undefined) continue;
    const after = edit.after === undefined ? [] : codeLines(edit.after);
    const before = edit.before === undefined ? [] : codeLines(edit.before);
    // A line an edit kept (in both) was neither written nor replaced by it.
    add(
      replaced,
      file,
      before.filter((line) => !after.includes(line)),
    );
    add(
      wrote,
      file,
      after.filter((line) => !before.includes(line)),
    );
  }
  const deleted = [...new Set(commands.flatMap(deletedBy))].slice(0, MAX_NAMES);
  const removed = [...new Set(commands.flatMap(removedBy))].slice(0, MAX_NAMES);
  const changes: CodeChanges = {
    ...(Object.keys(wrote).length ? { wrote } : {}),
    ...(Object.keys(replaced).length ? { replaced } : {}),
    ...(deleted.length ? { deleted } : {}),
    ...(removed.length ? { removed } : {}),
  };
  return Object.keys(changes).length ? changes : undefined;
}

const isList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
const isFileLines = (value: unknown): value is Record<string, string[]> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every(isList);

/** A record's code changes, when its extractor kept them (and they are well formed). */
export function codeChangesOf(record: MemoryRecord): CodeChanges | undefined {
  const code = record.metadata?.code;
  if (code === null || typeof code !== 'object' || Array.isArray(code)) return undefined;
  const c = code as Record<string, unknown>;
  const out: CodeChanges = {};
  if (isFileLines(c.wrote)) out.wrote = c.wrote;
  if (isFileLines(c.replaced)) out.replaced = c.replaced;
  if (isList(c.deleted)) out.deleted = c.deleted;
  if (isList(c.removed)) out.removed = c.removed;
  return out;
}

/** Both records' code changes as one (parts of one turn merged into one record). */
export function mergeCodeChanges(
  a: CodeChanges | undefined,
  b: CodeChanges | undefined,
): CodeChanges | undefined {
  if (!a) return b;
  if (!b) return a;
  const files = (x?: Record<string, string[]>, y?: Record<string, string[]>) => {
    const out: Record<string, string[]> = { ...x };
    for (const [file, lines] of Object.entries(y ?? {})) {
      if (!(file in out) && Object.keys(out).length >= MAX_FILES) continue;
      out[file] = [...new Set([...(out[file] ?? []), ...lines])].slice(0, MAX_LINES);
    }
    return Object.keys(out).length ? out : undefined;
  };
  const names = (x?: string[], y?: string[]) => {
    const out = [...new Set([...(x ?? []), ...(y ?? [])])].slice(0, MAX_NAMES);
    return out.length ? out : undefined;
  };
  const merged: CodeChanges = {};
  const wrote = files(a.wrote, b.wrote);
  const replaced = files(a.replaced, b.replaced);
  const deleted = names(a.deleted, b.deleted);
  const removed = names(a.removed, b.removed);
  if (wrote) merged.wrote = wrote;
  if (replaced) merged.replaced = replaced;
  if (deleted) merged.deleted = deleted;
  if (removed) merged.removed = removed;
  return merged;
}

/** A line the newer turn replaced covers an older line: equal, or one holds the other. */
function covers(replacedLine: string, written: string): boolean {
  if (replacedLine === written) return true;
  const shorter = replacedLine.length < written.length ? replacedLine : written;
  const longer = shorter === replacedLine ? written : replacedLine;
  // A fragment must name something (`limit: 100`, `newCheckout: false`), not be `{` or `x`.
  return shorter.length >= 6 && /[\p{L}]/u.test(shorter) && longer.includes(shorter);
}

/** Names and values of a line of code: identifiers, numbers, quoted strings. */
const TOKEN = /[A-Za-z_$][\w$]*|\d[\w.]*|'[^']*'|"[^"]*"/g;
const tokensOf = (text: string) => (text.match(TOKEN) ?? []).map((t) => t.toLowerCase());
const isValue = (token: string) => /^(?:\d|['"]|true$|false$|null$)/.test(token);

/**
 * Whether a line the newer turn replaced lives on in what it wrote instead: reworked around
 * (a fix wrapping it, a variable extracted) with its names and every value it set still
 * there. A changed value, or other code in its place, is not that.
 */
function survives(line: string, written: ReadonlySet<string>): boolean {
  const tokens = tokensOf(line);
  if (tokens.length === 0) return false;
  if (tokens.some((t) => isValue(t) && !written.has(t))) return false;
  return tokens.filter((t) => written.has(t)).length >= 0.8 * tokens.length;
}

/** Words a record states in its title and summary (what it is about), lower-cased. */
function statedWords(record: MemoryRecord): Set<string> {
  return new Set(
    `${record.title}\n${record.summary}`.toLowerCase().match(/[\p{L}\p{N}@][\p{L}\p{N}._-]*/gu) ??
      [],
  );
}

/**
 * Why `newer` retires `older` by what its turn did to the code, or undefined:
 * - its edits replaced most of what the older turn wrote in a file (at least half of the
 *   lines the older one left there are gone, not reworked with their names and values kept):
 *   the older record describes code that is no longer there;
 * - it deleted every file the older turn wrote;
 * - it removed a package the older record is about (named in its title or summary).
 */
export function codeSupersession(newer: MemoryRecord, older: MemoryRecord): string | undefined {
  const n = codeChangesOf(newer);
  const o = codeChangesOf(older);
  if (!n || !o) return undefined;
  const olderFiles = Object.keys(o.wrote ?? {});
  for (const file of olderFiles) {
    const replaced = n.replaced?.[file];
    if (!replaced?.length) continue;
    const written = o.wrote![file]!;
    const rewritten = new Set(n.wrote?.[file] ?? []);
    const rewrittenTokens = new Set([...rewritten].flatMap(tokensOf));
    const gone = written.filter(
      (line) =>
        !rewritten.has(line) &&
        replaced.some((r) => covers(r, line)) &&
        !survives(line, rewrittenTokens),
    );
    if (gone.length > 0 && gone.length * 2 >= written.length) {
      return `same file ${file}; an edit replaced what it wrote (${gone.length} of ${written.length} line${written.length === 1 ? '' : 's'})`;
    }
  }
  const deleted = new Set(n.deleted ?? []);
  if (olderFiles.length > 0 && olderFiles.every((file) => deleted.has(file))) {
    return `its file${olderFiles.length > 1 ? 's' : ''} ${olderFiles.join(', ')} deleted`;
  }
  const stated = statedWords(older);
  const removed = (n.removed ?? []).find(
    (name) => stated.has(name) || stated.has(name.replace(/^@[^/]+\//, '')),
  );
  if (removed) return `removed the package ${removed}`;
  return undefined;
}

// Writes docs/configuration.md from the settings schema, so the reference cannot drift
// from the code: the keys and their ranges come from SettingsFileSchema (as JSON Schema),
// the defaults from normalizeSettings of an empty file, the environment variables from
// what loadSettings reads, and each description from the doc comment of the field in
// CollectorSettings (or @kiro-learn/buffer's CompactionOptions for buffer.compaction).
//
// Runs against the built package (`kiro-learn` resolves to dist/):
//   node apps/collector/scripts/gen-config-docs.ts           rewrite docs/configuration.md
//   node apps/collector/scripts/gen-config-docs.ts --check   exit 1 when it is out of date
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveCompactionOptions } from '@kiro-learn/buffer';
import {
  loadSettings,
  normalizeSettings,
  OTHER_ENV_VARIABLES,
  SettingsFileSchema,
  settingsEnvVariables,
} from 'kiro-learn';
import { z } from 'zod';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const SETTINGS_SOURCE = 'apps/collector/src/config/settings.ts';
const COMPACTION_SOURCE = 'packages/buffer/src/compaction/options.ts';
const OUTPUT = 'docs/configuration.md';

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  required?: string[];
}

interface Row {
  key: string;
  type: string;
  default: string;
  env: string;
  doc: string;
}

/**
 * Doc comments of an interface's fields, by dot path (nested object types included).
 * A line scanner, not a parser: enough for interfaces written one field per line.
 */
export function fieldDocs(source: string, name: string): Map<string, string> {
  const docs = new Map<string, string>();
  const lines = source.split('\n');
  const start = lines.findIndex((l) => new RegExp(`interface ${name}\\b.*\\{\\s*$`).test(l));
  if (start < 0) throw new Error(`interface ${name} not found`);
  const path: string[] = [];
  let comment: string[] | undefined;
  let doc = '';
  for (const raw of lines.slice(start + 1)) {
    const line = raw.trim();
    if (comment) {
      const end = line.includes('*/');
      comment.push(line.replace(/\*\/.*$/, '').replace(/^\*\s?/, ''));
      if (end) [doc, comment] = [comment.join(' ').trim(), undefined];
      continue;
    }
    if (line.startsWith('/**')) {
      const body = line.slice(3);
      if (body.includes('*/')) doc = body.replace(/\*\/.*$/, '').trim();
      else comment = [body.trim()];
      continue;
    }
    const field = /^(\w+)\??:\s*(.*)$/.exec(line);
    if (field) {
      docs.set([...path, field[1]!].join('.'), doc);
      doc = '';
      if (field[2]!.endsWith('{')) path.push(field[1]!);
      continue;
    }
    if (/^\}/.test(line)) {
      if (path.length === 0) break;
      path.pop();
    }
  }
  return docs;
}

/** The variable (and older names) of each setting, by dot path: generated from the schema. */
export function envVariables(): Map<string, string> {
  return new Map(
    settingsEnvVariables().map((v) => [
      v.path.join('.'),
      [v.name, ...v.aliases].map((n) => `\`${n}\``).join(' or '),
    ]),
  );
}

function typeOf(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' · ');
  if (s.type === 'array') {
    const max = s.maxItems === undefined ? '' : `, at most ${s.maxItems}`;
    return `list of ${typeOf(s.items ?? {})}${max}`;
  }
  if (s.type === 'object' && s.properties) {
    const keys = Object.keys(s.properties).map((k) =>
      s.required?.includes(k) ? `\`${k}\`` : `\`${k}\`?`,
    );
    return `{${keys.join(', ')}}`;
  }
  if (s.type === 'integer' || s.type === 'number') {
    return s.minimum !== undefined && s.maximum !== undefined
      ? `integer ${s.minimum}–${s.maximum}`
      : (s.type ?? 'number');
  }
  if (s.type === 'string') {
    if (s.pattern) return `string matching \`${s.pattern}\``;
    return s.maxLength !== undefined
      ? `string, ${s.minLength ?? 0}–${s.maxLength} chars`
      : 'string';
  }
  return s.type ?? 'any';
}

/** A default as JSON, with a readable size or duration beside byte and millisecond counts. */
function formatDefault(key: string, value: unknown): string {
  if (value === undefined) return 'none';
  const json = `\`${JSON.stringify(value)}\``;
  if (typeof value !== 'number' || value === 0) return json;
  if (/Bytes$/.test(key)) {
    const [unit, size] = value % 1024 ** 2 === 0 ? ['MiB', 1024 ** 2] : ['KiB', 1024];
    return value % size === 0 ? `${json} (${value / size} ${unit})` : json;
  }
  if (/Ms$/.test(key) && value % 1000 === 0) return `${json} (${value / 1000} s)`;
  return json;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A Markdown table with padded columns, laid out as biome's formatter lays it out. */
function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}
const stripEnv = (doc: string) => doc.replace(/\s*\(`KIRO_LEARN_[A-Z_]+`\)/g, '');

function rows(): Row[] {
  const docs = fieldDocs(readFileSync(join(repo, SETTINGS_SOURCE), 'utf8'), 'CollectorSettings');
  const env = envVariables();
  const defaults = normalizeSettings({}, '~/.kiro-learn') as unknown as Record<string, unknown>;
  const schema = z.toJSONSchema(SettingsFileSchema) as JsonSchema;
  const out: Row[] = [];
  const walk = (node: JsonSchema, path: string[], dflt: unknown) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const at = [...path, key];
      const value = (dflt as Record<string, unknown> | undefined)?.[key];
      if (child.type === 'object' && child.properties) walk(child, at, value);
      else if (at.join('.') === 'buffer.compaction') out.push(...compactionRows(at.join('.')));
      else {
        out.push({
          key: at.join('.'),
          type: typeOf(child),
          default: formatDefault(key, value),
          env: env.get(at.join('.')) ?? '',
          doc: stripEnv(docs.get(at.join('.')) ?? ''),
        });
      }
    }
  };
  walk(schema, [], defaults);
  return out;
}

/** buffer.compaction is checked by @kiro-learn/buffer, not by zod: its keys come from there. */
function compactionRows(prefix: string): Row[] {
  const docs = fieldDocs(readFileSync(join(repo, COMPACTION_SOURCE), 'utf8'), 'CompactionOptions');
  const defaults = resolveCompactionOptions({}) as unknown as Record<string, unknown>;
  return Object.entries(defaults).map(([key, value]) => ({
    key: `${prefix}.${key}`,
    type:
      typeof value === 'number'
        ? 'integer ≥ 0'
        : Array.isArray(value)
          ? 'list of retention kinds'
          : typeof value === 'object'
            ? 'object: retention kind → policy'
            : typeof value,
    default: formatDefault(key, value),
    env: envVariables().get(`${prefix}.${key}`) ?? '',
    doc: docs.get(key) ?? '',
  }));
}

const EXAMPLE = {
  port: 21100,
  logLevel: 'info',
  retrieval: { budgetMs: 500, records: 10 },
  privacy: { extraPatterns: [{ pattern: 'ACME-[0-9]{8}', kind: 'acme_ticket' }] },
  extraction: { mode: 'auto', command: 'kiro-cli acp --agent kiro-learn-compressor' },
  buffer: { idleMs: 30000, compaction: { protectedTail: 20 } },
};

/** The example, once loadSettings accepted it: the page must not show a file that fails. */
function checkedExample(): string {
  const home = mkdtempSync(join(tmpdir(), 'kiro-learn-config-docs-'));
  try {
    writeFileSync(join(home, 'settings.json'), JSON.stringify(EXAMPLE));
    const { errors, warnings } = loadSettings({ KIRO_LEARN_HOME: home });
    const problems = [...errors, ...warnings];
    if (problems.length > 0) throw new Error(`the example settings fail: ${problems.join('; ')}`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return JSON.stringify(EXAMPLE, null, 2);
}

/** The whole page. */
export function renderConfigReference(): string {
  const settings = table(
    ['key', 'type', 'default', 'environment', 'what it does'],
    rows().map((r) => [`\`${r.key}\``, cell(r.type), r.default, r.env, cell(r.doc)]),
  );
  const others = table(
    ['variable', 'read by', 'what it does'],
    OTHER_ENV_VARIABLES.map(([name, by, does]) => [`\`${name}\``, by, does]),
  );
  return `<!-- Generated by apps/collector/scripts/gen-config-docs.ts from ${SETTINGS_SOURCE}: do not edit by hand. -->

# Configuration reference

The collector reads \`settings.json\` in its data directory (\`~/.kiro-learn\`, or
\`KIRO_LEARN_HOME\`), then lays the \`KIRO_LEARN_*\` variables below over it: **the
environment wins**. Every key has its variable, named after the key
(\`retrieval.budgetMs\` → \`KIRO_LEARN_RETRIEVAL_BUDGET_MS\`); its value is the text
itself for a string setting and JSON for the others (\`8\`, \`true\`, \`["a","b"]\`).
Every key is optional; a missing one takes its default. Settings are
read when the collector starts, so change them, then \`kiro-learn restart\`.

Start-up validates in three steps: the schema (types and ranges below), then defaults are
filled in, then rules that span keys (a non-loopback \`host\` needs a \`token\`;
\`buffer.ceilingBytes\` must be at least \`buffer.maxPendingBytes\`; every
\`privacy.extraPatterns\` entry must compile; \`buffer.compaction\` is checked by
@kiro-learn/buffer). An invalid setting stops start-up with one \`dot.path: message\` line
per problem, naming the variable when the value came from the environment; an unknown
top-level key is only a warning. \`kiro-learn doctor\` runs the same checks.

The hooks and the MCP server read only \`host\`, \`port\` and \`token\`, from the same file
and variables, so they always find the collector.

## Settings

${settings}

## Other environment variables

${others}

## Example

\`\`\`json
${checkedExample()}
\`\`\`
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = join(repo, OUTPUT);
  const text = renderConfigReference();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // missing counts as out of date
    }
    if (current !== text) {
      console.error(
        `${OUTPUT} is out of date with the settings schema: run node apps/collector/scripts/gen-config-docs.ts (after building kiro-learn)`,
      );
      process.exit(1);
    }
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${OUTPUT}`);
  }
}

import { resolveCompactionOptions } from '@kiro-learn/buffer';
import { z } from 'zod';
import { SettingsFileSchema } from './settings.js';

/** One `KIRO_LEARN_*` variable and the setting it overrides. */
export interface SettingEnvVariable {
  /** The variable, made from the key: `retrieval.budgetMs` → `KIRO_LEARN_RETRIEVAL_BUDGET_MS`. */
  name: string;
  /** Older names that still work (the generated name wins when both are set). */
  aliases: readonly string[];
  /** The setting's path in settings.json. */
  path: readonly string[];
  /** `text`: the value as written; `json`: parsed as JSON (numbers, booleans, lists, objects). */
  value: 'text' | 'json';
}

/** Names kept from before the variables were generated, by setting. */
const ALIASES: Readonly<Record<string, readonly string[]>> = {
  'extraction.mode': ['KIRO_LEARN_EXTRACTOR'],
  'extraction.command': ['KIRO_LEARN_COMPRESSOR_COMMAND'],
};

/** Variables read outside settings.json: no setting may generate one of these names. */
export const OTHER_ENV_VARIABLES: ReadonlyArray<
  readonly [name: string, readBy: string, does: string]
> = [
  [
    'KIRO_LEARN_HOME',
    'everything',
    'the data directory (default `~/.kiro-learn`): database, logs, PID file, `settings.json`, spool, hook scripts',
  ],
  [
    'KIRO_LEARN_ACTOR',
    'hooks, MCP server, `kiro-learn search`',
    'the actor in namespaces (default: the OS user name)',
  ],
  ['KIRO_LEARN_AUTOSTART', 'hooks', '`0` stops a hook from starting the collector when it is down'],
  ['KIRO_LEARN_CLI', 'hooks', 'the CLI script a hook starts instead of `kiro-learn` on the PATH'],
  [
    'KIRO_LEARN_CAPTURE',
    'hooks',
    '`off`: the hook exits at once and records nothing (the collector sets it for the extraction agent it starts)',
  ],
  [
    'KIRO_LEARN_FAST_PATH',
    'hooks',
    "set by the hook launcher for the Node shim when its curl fast path failed: curl's exit code (`28`, no answer in time: the shim then waits 0.5 s for the collector instead of 2 s before spooling)",
  ],
];

/** `budgetMs` → `BUDGET_MS`. */
const snake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** The variable name for a settings path. */
export function envName(path: readonly string[]): string {
  return `KIRO_LEARN_${path.map(snake).join('_')}`;
}

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

/** True when the setting takes a string (then the variable's text is the value as is). */
function takesText(node: JsonSchema): boolean {
  if (node.anyOf) return node.anyOf.every(takesText);
  if (node.enum) return node.enum.every((v) => typeof v === 'string');
  return node.type === 'string' || typeof node.const === 'string';
}

/**
 * Settings whose keys zod does not list (checked by another package): where their keys
 * come from, so each still gets its own variable.
 */
const OPEN_OBJECTS: Readonly<Record<string, () => readonly string[]>> = {
  'buffer.compaction': () => Object.keys(resolveCompactionOptions({})),
};

let cached: readonly SettingEnvVariable[] | undefined;

/**
 * One variable per settings key, generated from SettingsFileSchema: a key added to the
 * schema gets its variable (and its row in docs/configuration.md) with no other change.
 */
export function settingsEnvVariables(): readonly SettingEnvVariable[] {
  if (cached) return cached;
  const schema = z.toJSONSchema(SettingsFileSchema, { unrepresentable: 'any' }) as JsonSchema;
  const out: SettingEnvVariable[] = [];
  const add = (path: string[], value: SettingEnvVariable['value']) => {
    const key = path.join('.');
    out.push(Object.freeze({ name: envName(path), aliases: ALIASES[key] ?? [], path, value }));
  };
  const walk = (node: JsonSchema, path: string[]) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const at = [...path, key];
      const open = OPEN_OBJECTS[at.join('.')];
      if (open) for (const sub of open()) add([...at, sub], 'json');
      else if (child.type === 'object' && child.properties) walk(child, at);
      else add(at, takesText(child) ? 'text' : 'json');
    }
  };
  walk(schema, []);
  const reserved = new Set(OTHER_ENV_VARIABLES.map(([name]) => name));
  for (const variable of out) {
    if (reserved.has(variable.name)) {
      throw new Error(`setting ${variable.path.join('.')} would take ${variable.name}, reserved`);
    }
  }
  cached = Object.freeze(out);
  return cached;
}

/**
 * The value a variable's text stands for: as written for string settings; otherwise
 * JSON (`8`, `true`, `["a"]`), or the text itself when it is not JSON, so the schema
 * reports it against the variable instead of a parse error hiding which one it was.
 */
export function envValue(variable: SettingEnvVariable, text: string): unknown {
  if (variable.value === 'text') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

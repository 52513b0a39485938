import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatIssues } from '@kiro-learn/schema';
import { dataDir } from '@kiro-learn/schema/node';
import { checkRules } from './rules.js';
import { type CollectorSettings, normalizeSettings, SettingsFileSchema } from './settings.js';

/** Result of loading settings: `config` is present only when there are no errors. */
export interface LoadedSettings {
  config?: CollectorSettings;
  /** `dot.path: message` lines that do not stop start-up. */
  warnings: string[];
  /** `dot.path: message` lines; any one stops start-up. */
  errors: string[];
  /** The settings file that was read (it may not exist). */
  file: string;
}

/** Environment variables, the settings path each overrides, and whether it is a number. */
const ENV: ReadonlyArray<[name: string, path: readonly string[], numeric: boolean]> = [
  ['KIRO_LEARN_HOST', ['host'], false],
  ['KIRO_LEARN_PORT', ['port'], true],
  ['KIRO_LEARN_TOKEN', ['token'], false],
  ['KIRO_LEARN_LOG_LEVEL', ['logLevel'], false],
  ['KIRO_LEARN_RETRIEVAL_BUDGET_MS', ['retrieval', 'budgetMs'], true],
  ['KIRO_LEARN_COMPRESSOR_COMMAND', ['extraction', 'command'], false],
  ['KIRO_LEARN_EXTRACTOR', ['extraction', 'mode'], false],
  ['KIRO_LEARN_SEMANTIC_MODEL_DIR', ['semantic', 'modelDir'], false],
  ['KIRO_LEARN_STORAGE_URL', ['storage', 'url'], false],
];

const KNOWN_KEYS = new Set(Object.keys(SettingsFileSchema.shape));

/**
 * Reads `settings.json` in the data dir, lays `KIRO_LEARN_*` variables over it (env wins),
 * then validates: schema → normalize → rules. Reads the same file and variables as
 * `collectorAddress()` in @kiro-learn/schema/node, so clients and daemon agree.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): LoadedSettings {
  const home = dataDir(env);
  const file = join(home, 'settings.json');
  const warnings: string[] = [];

  let raw: Record<string, unknown> = {};
  try {
    const text = readFileSync(file, 'utf8');
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      return { errors: [`(root): ${file} must hold a JSON object`], warnings, file };
    }
    raw = parsed as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') {
      const why = error instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
      return { errors: [`(root): ${file} ${why} (${(error as Error).message})`], warnings, file };
    }
  }
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) warnings.push(`${key}: unknown setting, ignored`);
  }

  const fromEnv = new Map<string, string>();
  for (const [name, path, numeric] of ENV) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setPath(raw, path, numeric && /^\d+$/.test(value) ? Number(value) : value);
    fromEnv.set(path.join('.'), name);
  }

  const parsed = SettingsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = formatIssues(parsed.error).map((line) => {
      const path = line.slice(0, line.indexOf(':'));
      const name = fromEnv.get(path);
      return name ? `${path} (from ${name}): ${line.slice(path.length + 2)}` : line;
    });
    return { errors, warnings, file };
  }
  const config = normalizeSettings(parsed.data, home);
  const rules = checkRules(config);
  warnings.push(...rules.warnings);
  if (rules.errors.length > 0) return { errors: rules.errors, warnings, file };
  return { config, errors: [], warnings, file };
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

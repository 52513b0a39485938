import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatIssues } from '@kiro-learn/schema';
import { dataDir } from '@kiro-learn/schema/node';
import { envValue, settingsEnvVariables } from './env.js';
import { checkRules } from './rules.js';
import { type CollectorSettings, normalizeSettings, SettingsFileSchema } from './settings.js';
import { withTeamToken } from './team-token.js';

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
  for (const variable of settingsEnvVariables()) {
    const name = [variable.name, ...variable.aliases].find(
      (n) => env[n] !== undefined && env[n] !== '',
    );
    if (!name) continue;
    setPath(raw, variable.path, envValue(variable, env[name]!));
    fromEnv.set(variable.path.join('.'), name);
  }

  // `kiro-learn team join` keeps the member token in its own 0600 file, not settings.json.
  withTeamToken(raw, home);

  // Every `dot.path: message` line names the variable its value came from, if any.
  const named = (line: string) => {
    const path = line.slice(0, line.indexOf(':'));
    const name = fromEnv.get(path);
    return name ? `${path} (from ${name}): ${line.slice(path.length + 2)}` : line;
  };
  const parsed = SettingsFileSchema.safeParse(raw);
  if (!parsed.success) return { errors: formatIssues(parsed.error).map(named), warnings, file };
  const config = normalizeSettings(parsed.data, home);
  const rules = checkRules(config);
  warnings.push(...rules.warnings);
  if (rules.errors.length > 0) return { errors: rules.errors.map(named), warnings, file };
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

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in the data dir holding the member token `kiro-learn team join` was given (0600). */
export const TEAM_TOKEN_FILE = 'team-token';

/** Where the member token of this data dir is kept. */
export function teamTokenPath(home: string): string {
  return join(home, TEAM_TOKEN_FILE);
}

/**
 * Fills `team.token` from the token file when a team is joined (`team.url` set) and no
 * token was given in settings.json or the environment (those win). The raw settings
 * object is changed in place, before validation.
 */
export function withTeamToken(raw: Record<string, unknown>, home: string): void {
  const team = raw['team'];
  if (!team || typeof team !== 'object' || Array.isArray(team)) return;
  const t = team as Record<string, unknown>;
  if (t['url'] === undefined || t['token'] !== undefined) return;
  let token: string;
  try {
    token = readFileSync(teamTokenPath(home), 'utf8').trim();
  } catch {
    return;
  }
  if (token !== '') t['token'] = token;
}

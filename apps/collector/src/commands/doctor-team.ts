import { createTeamClient, type SharingStatus, TeamError } from '@kiro-learn/team';
import type { CollectorSettings } from '../config/settings.js';
import { api, type cliAddress } from '../lifecycle/client.js';

type Level = 'ok' | 'warn' | 'fail';
interface Check {
  level: Level;
  what: string;
  fix?: string;
}

/** How long doctor waits for the team server's whoami. */
const WHOAMI_TIMEOUT_MS = 3000;

/**
 * Team memory, when this machine joined a team: the server answers, it accepts the member
 * token, and the running collector's outbox is moving. Nothing when no team is joined.
 */
export async function teamChecks(
  team: CollectorSettings['team'],
  address: ReturnType<typeof cliAddress>,
  collectorRunning: boolean,
): Promise<Check[]> {
  const { url, token } = team;
  if (!url || !token) return [];
  const checks: Check[] = [];
  const client = createTeamClient({ url, token });
  try {
    const who = await client.whoami(AbortSignal.timeout(WHOAMI_TIMEOUT_MS));
    checks.push({
      level: 'ok',
      what: `team server ${client.url}: ${who.member} (${who.role}) in team ${who.team}`,
    });
  } catch (error) {
    checks.push(serverProblem(client.url, error));
  }
  if (!collectorRunning) return checks;
  let status: SharingStatus;
  try {
    status = await api<SharingStatus>(address, '/v1/sharing');
  } catch (error) {
    // A collector started before `team join` (older than the reload route) has no team.
    checks.push({
      level: 'warn',
      what: `the running collector does not use the team server (${error instanceof Error ? error.message : String(error)})`,
      fix: 'restart it: kiro-learn restart',
    });
    return checks;
  }
  const { count, oldest_at: since, last_error: lastError } = status.outbox;
  if (count > 0 && lastError) {
    checks.push({
      level: 'fail',
      what: `team outbox stuck: ${count} record(s) waiting since ${since ?? '?'}; the last push failed: ${lastError}`,
      fix: 'fix the team server problem above; the collector retries by itself (kiro-learn team status shows it move)',
    });
  } else {
    checks.push({
      level: 'ok',
      what: `team outbox: ${count} waiting, ${status.shares.length} shared project(s)`,
    });
  }
  return checks;
}

/** One line for a team server that did not accept whoami, and what to do about it. */
function serverProblem(url: string, error: unknown): Check {
  if (error instanceof TeamError && error.status === 401) {
    return {
      level: 'fail',
      what: `team server ${url} refuses the member token (401: revoked, or not this server's)`,
      fix: 'ask a team admin for a new token (kiro-learn team add-member), then: kiro-learn team join <url> --token <token>',
    };
  }
  if (error instanceof TeamError && error.status === undefined) {
    return {
      level: 'fail',
      what: error.message,
      fix: 'check team.url (kiro-learn team status) and the network, or ask the team admin whether the server runs; records wait in the outbox meanwhile',
    };
  }
  return {
    level: 'fail',
    what: `team server ${url} did not answer whoami: ${error instanceof Error ? error.message : String(error)}`,
    fix: 'check that team.url names a kiro-learn team server (kiro-learn team join <url> --token <token>)',
  };
}

import { chmodSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureDataDir, projectIdentity } from '@kiro-learn/schema/node';
import {
  createTeamClient,
  readShareMarker,
  readUnshared,
  SHARE_FILE,
  type SharingStatus,
  TeamError,
  writeShareMarker,
  writeUnshared,
} from '@kiro-learn/team';
import { loadSettings } from '../../config/load.js';
import { teamTokenPath } from '../../config/team-token.js';
import { CollectorError } from '../../errors.js';
import { api, cliAddress, probeRunning } from '../../lifecycle/client.js';
import { daemonFiles } from '../../lifecycle/files.js';
import { line } from '../args.js';
import type { CommandIO } from '../types.js';
import { type Subcommand, subcommand } from './subcommand.js';

/** The data dir (created 0700 when missing) of this CLI's collector. */
const home = (io: CommandIO) => ensureDataDir(cliAddress(io.env).home);

/** settings.json as an object (empty when missing); refuses one that is not an object. */
function readSettingsFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // reported below
  }
  throw new CollectorError(
    'invalid_settings',
    `${path} is not a JSON object: fix it (or move it away), then run the command again`,
  );
}

/** Rewrites settings.json atomically, keeping its mode (it may hold the server token). */
function writeSettingsFile(path: string, settings: Record<string, unknown>): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, path);
}

/** The `team` object of settings.json, changed by `change` (removed when left empty). */
function updateTeamSettings(dir: string, change: (team: Record<string, unknown>) => void): void {
  const path = join(dir, 'settings.json');
  const settings = readSettingsFile(path);
  const current = settings['team'];
  const team: Record<string, unknown> =
    current && typeof current === 'object' && !Array.isArray(current)
      ? { ...(current as Record<string, unknown>) }
      : {};
  change(team);
  if (Object.keys(team).length === 0) delete settings['team'];
  else settings['team'] = team;
  writeSettingsFile(path, settings);
}

/** One line saying what a failed call to the team server means for the user. */
function serverProblem(url: string, error: unknown): string {
  if (error instanceof TeamError) return error.message;
  return `could not reach ${url}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Asks a running collector to take the team settings and, with `project`, that project's
 * share files now (POST /v1/sharing/reload), so no restart is needed. Undefined when no
 * collector runs (it reads them when it starts) or it could not be told (the reason).
 */
async function tellCollector(
  io: CommandIO,
  project?: { namespace: string; root: string },
): Promise<{ told: true; joined: boolean; shared?: boolean } | { told: false; why?: string }> {
  const address = cliAddress(io.env);
  if (!(await probeRunning(address, daemonFiles(address.home).lock)).ok) return { told: false };
  try {
    const res = await fetch(`${address.baseUrl}/v1/sharing/reload`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(address.token ? { Authorization: `Bearer ${address.token}` } : {}),
      },
      body: JSON.stringify(
        project ? { namespace: project.namespace, project_path: project.root } : {},
      ),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await res.json().catch(() => ({}))) as {
      joined?: boolean;
      shared?: boolean;
      error?: string;
    };
    if (!res.ok) return { told: false, why: body.error ?? `it answered ${res.status}` };
    return {
      told: true,
      joined: body.joined === true,
      ...(body.shared === undefined ? {} : { shared: body.shared }),
    };
  } catch (error) {
    return { told: false, why: error instanceof Error ? error.message : String(error) };
  }
}

/** The line saying whether the running collector took the change. */
function collectorLine(told: Awaited<ReturnType<typeof tellCollector>>, done: string): string {
  if (told.told) return done;
  return told.why
    ? `The running collector could not be told (${told.why}): restart it (kiro-learn restart).`
    : 'No collector is running: it takes this when it starts (kiro-learn start).';
}

const join_ = subcommand(
  'join',
  'kiro-learn team join <url> --token <token>     join a team memory server (checks who you are there)',
  { options: { token: { type: 'string' } }, positionals: true },
  async ({ values, positionals }, io) => {
    const url = positionals[0];
    if (!url || !/^https?:\/\/[^\s/]+\S*$/.test(url)) {
      throw new CollectorError(
        'usage',
        'kiro-learn team join: give the team server as an http:// or https:// URL, e.g. kiro-learn team join https://memory.example.com --token klm_…',
      );
    }
    const token = values.token?.trim();
    if (!token) {
      throw new CollectorError(
        'usage',
        'kiro-learn team join: --token <token> is needed: the member token a team admin printed with kiro-learn team add-member',
      );
    }
    const client = createTeamClient({ url, token });
    let who: Awaited<ReturnType<typeof client.whoami>>;
    try {
      who = await client.whoami();
    } catch (error) {
      line(io.stderr, `kiro-learn team join: ${serverProblem(client.url, error)}; nothing changed`);
      return 1;
    }
    const dir = home(io);
    // The token goes to its own file, readable by this user only; settings.json keeps the URL.
    const tokenFile = teamTokenPath(dir);
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    chmodSync(tokenFile, 0o600);
    updateTeamSettings(dir, (team) => {
      team['url'] = client.url;
      delete team['token'];
    });
    line(
      io.stdout,
      `Joined team ${who.team} at ${client.url} as ${who.member} (${who.role}). Token kept in ${tokenFile} (mode 0600).`,
    );
    if (io.env['KIRO_LEARN_TEAM_URL'] || io.env['KIRO_LEARN_TEAM_TOKEN']) {
      line(
        io.stdout,
        'Note: KIRO_LEARN_TEAM_URL / KIRO_LEARN_TEAM_TOKEN are set in this environment and win over what was saved.',
      );
    }
    const told = await tellCollector(io);
    line(
      io.stdout,
      collectorLine(
        told,
        told.told && told.joined
          ? 'The running collector uses the team server from now on.'
          : 'The running collector took the settings, but they join no team (see the note above).',
      ),
    );
    line(io.stdout, 'Share a repository with kiro-learn team share.');
    return 0;
  },
);

const leave = subcommand(
  'leave',
  'kiro-learn team leave                          stop using the team server on this machine',
  { options: {} },
  async (_parsed, io) => {
    const dir = home(io);
    rmSync(teamTokenPath(dir), { force: true });
    updateTeamSettings(dir, (team) => {
      delete team['url'];
      delete team['token'];
    });
    line(
      io.stdout,
      'Left the team: nothing is pushed or pulled any more. Records already shared stay on the team server; records not yet pushed stay queued for a later join.',
    );
    const told = await tellCollector(io);
    line(
      io.stdout,
      collectorLine(
        told,
        told.told && told.joined
          ? 'The running collector still has a team from KIRO_LEARN_TEAM_URL / KIRO_LEARN_TEAM_TOKEN in its environment.'
          : 'The running collector stopped pushing and pulling.',
      ),
    );
    return 0;
  },
);

/** The project at --project (default: the working directory), with its git remote identity. */
function projectAt(io: CommandIO, command: string, dir: string | undefined) {
  const identity = projectIdentity(resolve(io.cwd, dir ?? '.'), { env: io.env });
  if (identity.source !== 'git-remote' || !identity.remote) {
    throw new CollectorError(
      'usage',
      `kiro-learn team ${command}: ${identity.root} has no git remote, so teammates' clones could not be matched to it: add one (git remote add origin <url>) and run again`,
    );
  }
  return identity;
}

const share = subcommand(
  'share',
  "kiro-learn team share [--project DIR]          share a repository's memory with the team (writes a file to commit)",
  { options: { project: { type: 'string' } } },
  async ({ values }, io) => {
    const identity = projectAt(io, 'share', values.project);
    const dir = home(io);
    const unshared = readUnshared(dir);
    if (unshared.delete(identity.projectId)) writeUnshared(dir, unshared);
    const had = readShareMarker(identity.root) !== undefined;
    const path = had
      ? join(identity.root, SHARE_FILE)
      : writeShareMarker(identity.root, identity.remote!);
    line(
      io.stdout,
      `Sharing ${identity.root} (project ${identity.projectId}, ${identity.remote}) with the team.`,
    );
    line(
      io.stdout,
      had
        ? `${SHARE_FILE} was there already.`
        : `Wrote ${path}: commit it, so every clone of the repository shares by default.`,
    );
    const loaded = loadSettings(io.env);
    if (!loaded.config?.team.url) {
      line(
        io.stdout,
        'This machine has not joined a team yet: kiro-learn team join <url> --token <token>.',
      );
    } else {
      line(
        io.stdout,
        `Its memory records (not raw events) go to ${loaded.config.team.url}, scrubbed.`,
      );
      const told = await tellCollector(io, identity);
      line(
        io.stdout,
        collectorLine(
          told,
          told.told && told.shared
            ? 'The running collector shares it now: its records are queued for the team server.'
            : 'The running collector shares it from the next prompt in it on.',
        ),
      );
    }
    return 0;
  },
);

const unshare = subcommand(
  'unshare',
  'kiro-learn team unshare [--project DIR]        stop sharing a repository from this machine (for you only)',
  { options: { project: { type: 'string' } } },
  async ({ values }, io) => {
    const identity = projectIdentity(resolve(io.cwd, values.project ?? '.'), { env: io.env });
    const dir = home(io);
    const unshared = readUnshared(dir);
    unshared.add(identity.projectId);
    writeUnshared(dir, unshared);
    line(
      io.stdout,
      `This machine no longer shares ${identity.root} (project ${identity.projectId}): records not yet pushed are dropped from the outbox; records already shared stay on the team server. ${SHARE_FILE} stays, for your teammates; kiro-learn team share undoes this.`,
    );
    const told = await tellCollector(io, identity);
    if (told.told && told.shared === false) {
      line(io.stdout, 'The running collector stopped sharing it.');
    } else if (!told.told && told.why) {
      line(io.stdout, collectorLine(told, ''));
    }
    return 0;
  },
);

const status = subcommand(
  'status',
  'kiro-learn team status [--json]                server, member, shared projects, outbox, last push and pull',
  { options: { json: { type: 'boolean' } } },
  async ({ values }, io) => {
    const loaded = loadSettings(io.env);
    if (!loaded.config) {
      throw new CollectorError('invalid_settings', `invalid settings: ${loaded.errors.join('; ')}`);
    }
    const { url, token } = loaded.config.team;
    if (!url || !token) {
      if (values.json) line(io.stdout, JSON.stringify({ joined: false }));
      else line(io.stdout, 'Not in a team: kiro-learn team join <url> --token <token>');
      return 0;
    }
    const address = cliAddress(io.env);
    const running = (await probeRunning(address, daemonFiles(address.home).lock)).ok;
    let report: Partial<SharingStatus> & { joined: true; collector_running: boolean };
    if (running) {
      report = {
        joined: true,
        collector_running: true,
        ...(await api<SharingStatus>(address, '/v1/sharing')),
      };
    } else {
      // No collector: the server can still say who this member is; the outbox waits in the
      // database until the collector runs again.
      const client = createTeamClient({ url, token });
      report = { joined: true, collector_running: false, server: client.url };
      try {
        report.identity = await client.whoami(AbortSignal.timeout(3000));
      } catch (error) {
        report.server_error = serverProblem(client.url, error);
      }
    }
    if (values.json) {
      line(io.stdout, JSON.stringify(report));
      return 0;
    }
    const who = report.identity;
    line(io.stdout, `server:  ${report.server}`);
    line(
      io.stdout,
      `member:  ${who ? `${who.member} (${who.role}) in team ${who.team}` : `unknown: ${report.server_error}`}`,
    );
    if (!running) {
      line(
        io.stdout,
        'collector: not running (kiro-learn start); nothing is pushed or pulled meanwhile',
      );
      return 0;
    }
    const shares = report.shares ?? [];
    line(
      io.stdout,
      `shared projects: ${shares.length === 0 ? 'none yet (kiro-learn team share)' : ''}`,
    );
    for (const s of shares)
      line(io.stdout, `  ${s.project_id}  (${s.namespace}, since ${s.shared_at})`);
    const outbox = report.outbox;
    line(
      io.stdout,
      `outbox:  ${outbox?.count ?? 0} waiting${outbox?.oldest_at ? ` since ${outbox.oldest_at}` : ''}${outbox?.last_error ? ` (last error: ${outbox.last_error})` : ''}`,
    );
    line(io.stdout, `last push: ${report.last_push_at ?? 'none since the collector started'}`);
    line(io.stdout, `last pull: ${report.last_pull_at ?? 'none since the collector started'}`);
    if (report.last_error) line(io.stdout, `last error: ${report.last_error}`);
    return 0;
  },
);

/** The subcommands `kiro-learn team` runs on a developer's machine. */
export const TEAM_CLIENT_SUBCOMMANDS: readonly Subcommand[] = [
  join_,
  leave,
  share,
  unshare,
  status,
];

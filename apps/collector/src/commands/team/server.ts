import { ensureDataDir } from '@kiro-learn/schema/node';
import { type Member, StorageError } from '@kiro-learn/storage';
import { hashToken, MEMBER_NAME, newMemberToken, TEAM_NAME } from '@kiro-learn/team';
import { loadSettings } from '../../config/load.js';
import { CollectorError } from '../../errors.js';
import { daemonFiles } from '../../lifecycle/files.js';
import { openCollectorStorage } from '../../storage.js';
import { line } from '../args.js';
import type { CommandIO } from '../types.js';
import { type Subcommand, subcommand } from './subcommand.js';

/** `kiro-learn team` on the machine that runs the team's memory server: its members. */

/** Opens the storage this machine's settings choose, runs `work`, closes it. */
async function withStorage<T>(
  io: CommandIO,
  work: (storage: Awaited<ReturnType<typeof openCollectorStorage>>['storage']) => Promise<T>,
): Promise<T> {
  const loaded = loadSettings(io.env);
  if (!loaded.config) {
    throw new CollectorError('invalid_settings', `invalid settings: ${loaded.errors.join('; ')}`);
  }
  ensureDataDir(loaded.config.home);
  const { storage } = await openCollectorStorage(
    loaded.config,
    daemonFiles(loaded.config.home).database,
  );
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

function memberName(command: string, name: string | undefined): string {
  if (name === undefined) {
    throw new CollectorError('usage', `kiro-learn team ${command}: name the member (see --help)`);
  }
  if (!MEMBER_NAME.test(name)) {
    throw new CollectorError(
      'usage',
      `kiro-learn team ${command}: a member name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(name)})`,
    );
  }
  return name;
}

function teamName(team: string | undefined): string {
  if (team === undefined) return 'default';
  if (!TEAM_NAME.test(team)) {
    throw new CollectorError(
      'usage',
      `kiro-learn team add-member: a team name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit (got ${JSON.stringify(team)})`,
    );
  }
  return team;
}

const addMember = subcommand(
  'add-member',
  'kiro-learn team add-member <name> [--team TEAM] [--admin]  a member of TEAM ("default"); prints their token once',
  { options: { admin: { type: 'boolean' }, team: { type: 'string' } }, positionals: true },
  async ({ values, positionals }, io) => {
    const name = memberName('add-member', positionals[0]);
    const team = teamName(values.team);
    const token = newMemberToken();
    const role: Member['role'] = values.admin ? 'admin' : 'member';
    try {
      await withStorage(io, (storage) =>
        storage.addMember({ name, team, role, tokenHash: hashToken(token) }),
      );
    } catch (error) {
      if (error instanceof StorageError && error.code === 'conflict') {
        throw new CollectorError(
          'http',
          `kiro-learn team add-member: ${name} is already a member (kiro-learn team remove ${name} first to give them a new token)`,
        );
      }
      throw error;
    }
    line(io.stdout, `Added ${name} to team ${team} (${role}). Their token, shown only this once:`);
    line(io.stdout, token);
    return 0;
  },
);

const list = subcommand(
  'list',
  'kiro-learn team list [--json]                              members: name, team, role, when added',
  { options: { json: { type: 'boolean' } } },
  async ({ values }, io) => {
    const members = await withStorage(io, (storage) => storage.listMembers());
    if (values.json) {
      line(io.stdout, JSON.stringify(members));
      return 0;
    }
    if (members.length === 0) {
      line(io.stdout, 'No members yet: kiro-learn team add-member <name>');
      return 0;
    }
    const width = Math.max(4, ...members.map((m) => m.name.length));
    const teamWidth = Math.max(4, ...members.map((m) => m.team.length));
    line(io.stdout, `${'name'.padEnd(width)}  ${'team'.padEnd(teamWidth)}  role    added`);
    for (const m of members) {
      line(
        io.stdout,
        `${m.name.padEnd(width)}  ${m.team.padEnd(teamWidth)}  ${m.role.padEnd(6)}  ${m.createdAt}`,
      );
    }
    return 0;
  },
);

const remove = subcommand(
  'remove',
  'kiro-learn team remove <name>                              their token stops working at once',
  { options: {}, positionals: true },
  async ({ positionals }, io) => {
    const name = memberName('remove', positionals[0]);
    const removed = await withStorage(io, (storage) => storage.removeMember(name));
    if (!removed) {
      line(io.stderr, `kiro-learn team remove: no member named ${name} (kiro-learn team list)`);
      return 1;
    }
    line(io.stdout, `Removed ${name}: their token no longer works.`);
    return 0;
  },
);

/** The subcommands `kiro-learn team` runs on a team server. */
export const SERVER_SUBCOMMANDS: readonly Subcommand[] = [addMember, list, remove];

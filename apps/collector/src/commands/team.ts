import { ensureDataDir } from '@kiro-learn/schema/node';
import { type Member, StorageError } from '@kiro-learn/storage';
import { hashToken, MEMBER_NAME, newMemberToken, TEAM_NAME } from '@kiro-learn/team';
import { loadSettings } from '../config/load.js';
import { CollectorError } from '../errors.js';
import { daemonFiles } from '../lifecycle/files.js';
import { openCollectorStorage } from '../storage.js';
import { line, parseCommandArgs } from './args.js';
import { TEAM_CLIENT_SUBCOMMANDS } from './team-client.js';
import type { Command, CommandIO } from './types.js';

/** One `kiro-learn team <sub>` subcommand (team memory adds more beside these). */
interface Subcommand {
  name: string;
  usage: string;
  run(args: string[], io: CommandIO): Promise<number>;
}

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

const addMember: Subcommand = {
  name: 'add-member',
  usage:
    'kiro-learn team add-member <name> [--team TEAM] [--admin]  a member of TEAM ("default"); prints their token once',
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'team add-member',
      args,
      { admin: { type: 'boolean' }, team: { type: 'string' } },
      true,
    );
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
};

const list: Subcommand = {
  name: 'list',
  usage:
    'kiro-learn team list [--json]                              members: name, team, role, when added',
  async run(args, io) {
    const { values } = parseCommandArgs('team list', args, { json: { type: 'boolean' } });
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
};

const remove: Subcommand = {
  name: 'remove',
  usage:
    'kiro-learn team remove <name>                              their token stops working at once',
  async run(args, io) {
    const { positionals } = parseCommandArgs('team remove', args, {}, true);
    const name = memberName('remove', positionals[0]);
    const removed = await withStorage(io, (storage) => storage.removeMember(name));
    if (!removed) {
      line(io.stderr, `kiro-learn team remove: no member named ${name} (kiro-learn team list)`);
      return 1;
    }
    line(io.stdout, `Removed ${name}: their token no longer works.`);
    return 0;
  },
};

const SERVER_SUBCOMMANDS: readonly Subcommand[] = [addMember, list, remove];
const SUBCOMMANDS: readonly Subcommand[] = [...SERVER_SUBCOMMANDS, ...TEAM_CLIENT_SUBCOMMANDS];

export const team: Command = {
  name: 'team',
  summary: 'team memory: add-member, list, remove (server); join, leave, share, unshare, status',
  usage: `kiro-learn team <subcommand>

On the machine that runs the team's memory server (its settings choose the database):
${SERVER_SUBCOMMANDS.map((s) => `  ${s.usage}`).join('\n')}

On a developer's machine (see docs/team-memory.md):
${TEAM_CLIENT_SUBCOMMANDS.map((s) => `  ${s.usage}`).join('\n')}

A member sends their token as "Authorization: Bearer <token>" to the team routes
(/v1/team/...): they share records with their team and read their team's, nothing else.
Tokens are stored hashed.`,
  async run(args, io) {
    const [name, ...rest] = args;
    const sub = SUBCOMMANDS.find((s) => s.name === name);
    if (!sub) {
      throw new CollectorError(
        'usage',
        `kiro-learn team: ${name === undefined ? 'a subcommand is needed' : `unknown subcommand "${name}"`}: ${SUBCOMMANDS.map((s) => s.name).join(', ')} (see kiro-learn team --help)`,
      );
    }
    return sub.run(rest, io);
  },
};

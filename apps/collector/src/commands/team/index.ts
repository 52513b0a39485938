import { CollectorError } from '../../errors.js';
import type { Command } from '../types.js';
import { TEAM_CLIENT_SUBCOMMANDS } from './member.js';
import { SERVER_SUBCOMMANDS } from './server.js';
import type { Subcommand } from './subcommand.js';

/**
 * `kiro-learn team`: a folder of subcommands. server.ts: add-member, list, remove (on the
 * team server); member.ts: join, leave, share, unshare, status (on a developer's machine).
 */
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

import { NamespaceSchema } from '@kiro-learn/schema';
import { Hono } from 'hono';
import { z } from 'zod';
import { refuse } from '../errors.js';
import type { ReadJson } from '../host.js';
import { parseWith, readJsonBody } from '../http.js';
import type { TeamSwitch } from './switch.js';

/** Optional body of POST /v1/sharing/reload: a project whose share files just changed. */
const ReloadSchema = z.object({
  namespace: NamespaceSchema.optional(),
  project_path: z.string().min(1).max(4096).optional(),
});

/**
 * `/v1/sharing`: this machine's side of team memory (what `kiro-learn team status` shows):
 * the server and who this member is there, shared projects, the outbox, last push and
 * pull. Not the team server's `/v1/team/*` routes: those answer members of a team.
 */
export function sharingRoutes(teams: TeamSwitch, readJson: ReadJson = readJsonBody): Hono {
  const app = new Hono();
  app.get('/', async (c) => {
    const team = teams.current();
    if (!team) {
      throw refuse(
        404,
        'this collector has not joined a team: kiro-learn team join <url> --token <token>',
      );
    }
    return c.json(await team.status());
  });
  // Pushes the outbox now (after `team share`, or to check a server that is back).
  app.post('/push', async (c) => {
    const team = teams.current();
    if (!team) throw refuse(404, 'this collector has not joined a team');
    const empty = await team.pusher.drain();
    const { outbox } = await team.status();
    return c.json({ empty, outbox });
  });
  // `team join` / `leave` / `share` / `unshare` call this so a running collector takes the
  // change at once: team settings are read again, and the named project's files looked at.
  app.post('/reload', async (c) => {
    const body = parseWith(ReloadSchema, await readJson(c, 16 * 1024), 'body');
    let reloaded: Awaited<ReturnType<TeamSwitch['reload']>>;
    try {
      reloaded = await teams.reload();
    } catch (error) {
      throw refuse(
        400,
        `settings not reloaded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const team = teams.current();
    let shared: boolean | undefined;
    if (team && body.namespace && body.project_path) {
      team.tracker.recheck(body.namespace, body.project_path);
      await team.tracker.settled();
      shared = team.tracker.projectOf(body.namespace) !== undefined;
      team.pusher.wake();
    }
    return c.json({ ...reloaded, ...(shared === undefined ? {} : { shared }) });
  });
  return app;
}

import { Hono } from 'hono';
import { httpError } from '../errors.js';
import type { TeamRuntime } from '../team/runtime.js';

/**
 * `/v1/sharing`: this machine's side of team memory (what `kiro-learn team status` shows):
 * the server and who this member is there, shared projects, the outbox, last push and
 * pull. Not the team server's `/v1/team/*` routes: those answer members of a team.
 */
export function sharingRoutes(team: TeamRuntime | undefined): Hono {
  const app = new Hono();
  app.get('/', async (c) => {
    if (!team) {
      throw httpError(
        404,
        'this collector has not joined a team: kiro-learn team join <url> --token <token>',
      );
    }
    return c.json(await team.status());
  });
  // Pushes the outbox now (after `team share`, or to check a server that is back).
  app.post('/push', async (c) => {
    if (!team) throw httpError(404, 'this collector has not joined a team');
    const empty = await team.pusher.drain();
    const { outbox } = await team.status();
    return c.json({ empty, outbox });
  });
  return app;
}

import { z } from 'zod';
import { LIMITS } from './limits.js';
import { MemoryRecordSchema } from './memory.js';
import { buildNamespace, parseNamespace } from './namespace.js';
import { RecordIdSchema } from './primitives.js';

/**
 * Team memory's wire shapes (DESIGN.md, issue #18): what a developer's collector sends to
 * the team server's `/v1/team/*` routes and gets back.
 */

/** A member's or a team's name: 1-64 letters, digits, `.`, `_`, `-`, starting with a letter or digit. */
export const TEAM_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The actor part of a team's namespaces: `team:<team>`. A member's name becomes the actor
 * of what they write, and `:` is not allowed in a name (TEAM_NAME_PATTERN), so a team's
 * namespace can never be a member's.
 */
export const TEAM_ACTOR_PREFIX = 'team:';

/** Where the team server keeps a team's shared records of one project. */
export function teamNamespace(team: string, projectId: string): string {
  return buildNamespace(`${TEAM_ACTOR_PREFIX}${team}`, projectId);
}

/** The team whose namespace this is, or undefined for any other namespace. */
export function teamOfNamespace(namespace: string): string | undefined {
  const actor = parseNamespace(namespace)?.actor;
  return actor?.startsWith(TEAM_ACTOR_PREFIX) ? actor.slice(TEAM_ACTOR_PREFIX.length) : undefined;
}

/** A namespace's project part (ProjectIdentity.projectId). */
export const ProjectIdSchema = z.string().superRefine((value, ctx) => {
  if (!parseNamespace(`/actor/x/project/${value}/`)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be a project id: 1-256 characters, no "/", white space or control character',
    });
  }
});

const teamLimit = z.coerce.number().int().min(1).max(50).default(10);

/*
 * The wire contract between a member's collector and the team server, documented once
 * here (docs/collector-api.md, "Team memory", shows it by example). Every route acts for
 * the member whose token (`Authorization: Bearer klm_…`) the request carries: 401 without
 * one, 403 with the server's own token. Errors are `{error, details?}`:
 *
 * | route                            | request                  | answer                          |
 * | -------------------------------- | ------------------------ | ------------------------------- |
 * | GET /v1/team/whoami              | –                        | TeamWhoamiResponse              |
 * | PUT /v1/team/records/:record_id  | TeamPushBody             | TeamPushResponse; 403 another member's (`details.author`), 409 the id is taken outside the team or shared in another project (`details.project_id`: a record stays in the project it was first shared to), 410 deleted from the team (`details.deleted_at`: a client takes it as done); 429 too many requests (`Retry-After`) |
 * | DELETE /v1/team/records/:record_id | –                      | TeamDeleteResponse; 404 not the team's (a client takes it as done), 403 another member's |
 * | GET /v1/team/search              | TeamSearchQuery          | TeamSearchResponse, best first  |
 * | GET /v1/team/recent              | TeamRecentQuery          | TeamRecentResponse, newest first |
 *
 * Clients read answers leniently (unknown fields pass; an item that is not a valid record
 * is left out, not trusted), so a newer server's additions never break an older member.
 */

/** GET /v1/team/whoami: who the token is on the server. */
export const TeamWhoamiResponseSchema = z.looseObject({
  /** The member's team. */
  team: z.string(),
  /** The member's name: the author of what they share. */
  member: z.string(),
  /** `member` or `admin` (an admin may change and delete every record of the team). */
  role: z.string(),
  /** The server's kiro-learn version. */
  version: z.string().optional(),
});
export type TeamWhoamiResponse = z.infer<typeof TeamWhoamiResponseSchema>;

/** PUT /v1/team/records/:record_id. The record's namespace is ignored (the server scopes it). */
export const TeamPushBodySchema = z.object({
  /** The project's id on every clone (ProjectIdentity.projectId of a git remote). */
  project_id: ProjectIdSchema,
  /**
   * Grows with every edit on the author's machine; a push not above the stored one is a
   * no-op. At most LIMITS.teamRevision.
   */
  revision: z.number().int().min(1).max(LIMITS.teamRevision),
  /** The record as the member has it, scrubbed by the member and again by the server. */
  record: MemoryRecordSchema.extend({ namespace: z.string().optional() }),
});
export type TeamPushBody = z.infer<typeof TeamPushBodySchema>;

/** The answer to a push: `stored` false when the server had this revision or a newer one. */
export const TeamPushResponseSchema = z.looseObject({
  record_id: RecordIdSchema,
  stored: z.boolean(),
});
export type TeamPushResponse = z.infer<typeof TeamPushResponseSchema>;

/** DELETE /v1/team/records/:record_id: a tombstone is kept, so later pushes answer 410. */
export const TeamDeleteResponseSchema = z.looseObject({ deleted: z.literal(true) });
export type TeamDeleteResponse = z.infer<typeof TeamDeleteResponseSchema>;

/** GET /v1/team/search?project&query&limit: the server's ranked search in one project. */
export const TeamSearchQuerySchema = z.object({
  project: ProjectIdSchema,
  query: z.string().max(64 * 1024),
  /** 1-50, default 10. */
  limit: teamLimit,
});
export type TeamSearchQuery = z.infer<typeof TeamSearchQuerySchema>;

/** GET /v1/team/recent?project&limit: the project's newest shared records. */
export const TeamRecentQuerySchema = z.object({
  project: ProjectIdSchema,
  /** 1-50, default 10. */
  limit: teamLimit,
});
export type TeamRecentQuery = z.infer<typeof TeamRecentQuerySchema>;

/** One shared record an answer carries, with its author. */
export const TeamItemSchema = z.looseObject({
  /** Scoped to the team's namespace of the project (`/actor/team:<team>/project/<id>/`). */
  record: MemoryRecordSchema,
  /** The member who first pushed it. */
  author: z.string().min(1).max(128),
  /** Search only: the server's score, higher is better. */
  score: z.number().optional(),
});
export type TeamItem = z.infer<typeof TeamItemSchema>;

/** The answer of search and recent: `items`, each read on its own (see TeamItemSchema). */
export const TeamItemsResponseSchema = z.looseObject({ items: z.array(z.unknown()) });

export const TeamSearchResponseSchema = z.object({
  items: z.array(TeamItemSchema.extend({ score: z.number() })),
});
export type TeamSearchResponse = z.infer<typeof TeamSearchResponseSchema>;

export const TeamRecentResponseSchema = z.object({
  items: z.array(TeamItemSchema.omit({ score: true })),
});
export type TeamRecentResponse = z.infer<typeof TeamRecentResponseSchema>;

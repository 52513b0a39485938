import { z } from 'zod';
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

/** PUT /v1/team/records/:record_id. The record's namespace is ignored (the server scopes it). */
export const TeamPushBodySchema = z.object({
  project_id: ProjectIdSchema,
  /** Grows with every edit on the author's machine; a push not above the stored one is a no-op. */
  revision: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  record: MemoryRecordSchema.extend({ namespace: z.string().optional() }),
});
export type TeamPushBody = z.infer<typeof TeamPushBodySchema>;

export const TeamPushResponseSchema = z.object({
  record_id: RecordIdSchema,
  stored: z.boolean(),
});
export type TeamPushResponse = z.infer<typeof TeamPushResponseSchema>;

export const TeamWhoamiResponseSchema = z.object({
  team: z.string(),
  member: z.string(),
  role: z.enum(['member', 'admin']),
  version: z.string(),
});
export type TeamWhoamiResponse = z.infer<typeof TeamWhoamiResponseSchema>;

export const TeamSearchQuerySchema = z.object({
  project: ProjectIdSchema,
  query: z.string().max(64 * 1024),
  limit: teamLimit,
});
export type TeamSearchQuery = z.infer<typeof TeamSearchQuerySchema>;

export const TeamRecentQuerySchema = z.object({
  project: ProjectIdSchema,
  limit: teamLimit,
});
export type TeamRecentQuery = z.infer<typeof TeamRecentQuerySchema>;

export const TeamSearchResponseSchema = z.object({
  items: z.array(z.object({ record: MemoryRecordSchema, author: z.string(), score: z.number() })),
});
export type TeamSearchResponse = z.infer<typeof TeamSearchResponseSchema>;

export const TeamRecentResponseSchema = z.object({
  items: z.array(z.object({ record: MemoryRecordSchema, author: z.string() })),
});
export type TeamRecentResponse = z.infer<typeof TeamRecentResponseSchema>;

import { createHash, randomBytes } from 'node:crypto';
import { TEAM_NAME_PATTERN } from '@kiro-learn/schema';
import type { Member } from '@kiro-learn/storage';
import type { Context } from 'hono';

/**
 * A member name: the author of what they share. Namespace-safe characters only, and never
 * `:`, the mark of a team's namespaces (`/actor/team:<team>/…`): a member's own namespace
 * (their name as actor) can never be a team's.
 */
export const MEMBER_NAME = TEAM_NAME_PATTERN;

/** A team name: the same characters as a member's. */
export const TEAM_NAME = TEAM_NAME_PATTERN;

/** A new member token: `klm_` and 32 random bytes, base64url (shown once, stored hashed). */
export function newMemberToken(): string {
  return `klm_${randomBytes(32).toString('base64url')}`;
}

/** What is stored and looked up instead of the token: its SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const members = new WeakMap<Request, Member>();

/**
 * Remembers which member a request authenticated as. The host's authentication (the
 * collector's security middleware) calls it for a request bearing a member token, whose
 * SHA-256 (`hashToken`) it found with storage's `findMember`; the team routes act for
 * that member.
 */
export function setRequestMember(c: Context, member: Member): void {
  members.set(c.req.raw, member);
}

/** The member a request authenticated as with a member token, if any. */
export function requestMember(c: Context): Member | undefined {
  return members.get(c.req.raw);
}

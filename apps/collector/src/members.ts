import { createHash, randomBytes } from 'node:crypto';
import {
  buildNamespace,
  type Event,
  type MemoryRecord,
  parseNamespace,
  TEAM_NAME_PATTERN,
} from '@kiro-learn/schema';
import type { Member } from '@kiro-learn/storage';
import type { Context } from 'hono';

/**
 * A member name: it becomes the actor in namespaces, so namespace-safe characters only,
 * and never `:`, the mark of a team's namespaces (`/actor/team:<team>/…`), so no member's
 * namespace can be a team's.
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

/** Remembers which member a request authenticated as (the security middleware). */
export function setRequestMember(c: Context, member: Member): void {
  members.set(c.req.raw, member);
}

/** The member a request authenticated as with a member token, if any. */
export function requestMember(c: Context): Member | undefined {
  return members.get(c.req.raw);
}

/**
 * The namespace with `actor` in the actor's place: what a member writes is theirs,
 * whatever actor the request named. Unparsable namespaces are left to validation.
 */
function asActor(namespace: string, actor: string): string {
  const parsed = parseNamespace(namespace);
  return parsed ? buildNamespace(actor, parsed.projectId) : namespace;
}

/** The event as written by `member`: actor_id and the namespace's actor are theirs. */
export function eventAsMember<T extends Event>(event: T, member: Member | undefined): T {
  if (!member) return event;
  return { ...event, actor_id: member.name, namespace: asActor(event.namespace, member.name) };
}

/** The record as written by `member`: its namespace's actor is theirs. */
export function recordAsMember<T extends MemoryRecord>(record: T, member: Member | undefined): T {
  if (!member) return record;
  return { ...record, namespace: asActor(record.namespace, member.name) };
}

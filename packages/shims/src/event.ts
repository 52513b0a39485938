import type { Event } from '@kiro-learn/schema';
import type { ProjectIdentity } from '@kiro-learn/schema/node';
import type { HookEvent } from './hook.js';

/** Everything an event needs besides the hook itself; injected so tests are exact. */
export interface EventContext {
  /** Project the hook ran in. */
  identity: ProjectIdentity;
  /** Session the event belongs to. */
  sessionId: string;
  /** The new event's ULID. */
  eventId: string;
  /** When the hook fired, ISO-8601 with offset. */
  validTime: string;
  /** Shim version. */
  version: string;
  /** This machine's client id. */
  clientId: string;
}

/** The wire Event for a mapped hook (body not yet capped). */
export function buildEvent(hook: HookEvent, context: EventContext): Event {
  return {
    event_id: context.eventId,
    session_id: context.sessionId.slice(0, 128),
    actor_id: context.identity.actor,
    namespace: context.identity.namespace,
    schema_version: 1,
    kind: hook.kind,
    body: hook.body,
    valid_time: context.validTime,
    source: {
      surface: hook.surface,
      version: context.version,
      client_id: context.clientId,
      project_path: context.identity.root,
    },
  };
}

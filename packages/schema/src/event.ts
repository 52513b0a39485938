import { z } from 'zod';
import { nestsDeeperThan } from './depth.js';
import { LIMITS } from './limits.js';
import { IsoDateTimeSchema, idString, NamespaceSchema, UlidSchema } from './primitives.js';
import { utf8Length } from './utf8.js';

export const EVENT_KINDS = ['prompt', 'tool_use', 'session_summary', 'note'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Where an event came from. New agents are added at the end: old values keep their meaning. */
export const SURFACES = [
  'kiro-cli',
  'kiro-ide',
  'claude-code',
  'mcp',
  'api',
  'codex',
  'gemini-cli',
  'cursor',
  'copilot-cli',
  'vscode',
  'cline',
  'opencode',
  'augment',
  'windsurf',
] as const;
export type Surface = (typeof SURFACES)[number];

export const TextBodySchema = z.object({ type: z.literal('text'), content: z.string() });
export const MessageTurnSchema = z.object({
  role: z.string().min(1).max(LIMITS.roleLength),
  content: z.string(),
});
export const MessageBodySchema = z.object({
  type: z.literal('message'),
  turns: z.array(MessageTurnSchema).min(1),
});
export const JsonBodySchema = z.object({ type: z.literal('json'), data: z.unknown() });

export const EventBodySchema = z
  .discriminatedUnion('type', [TextBodySchema, MessageBodySchema, JsonBodySchema])
  .superRefine((body, ctx) => {
    // The event and its body are two levels of the document the limit counts.
    if (nestsDeeperThan(body, LIMITS.jsonDepth - 1)) {
      ctx.addIssue({
        code: 'custom',
        message: `body nests deeper than ${LIMITS.jsonDepth} levels, counting the event`,
      });
      return;
    }
    let size: number;
    try {
      size = utf8Length(JSON.stringify(body) ?? '');
    } catch {
      ctx.addIssue({ code: 'custom', message: 'body must be serializable JSON' });
      return;
    }
    if (size > LIMITS.bodyBytes) {
      ctx.addIssue({
        code: 'custom',
        message: `body is ${size} bytes serialized; the limit is ${LIMITS.bodyBytes}`,
      });
    }
  });

export const EventSourceSchema = z.object({
  surface: z.enum(SURFACES),
  version: idString(LIMITS.versionLength),
  client_id: idString(LIMITS.idLength),
  project_path: z.string().min(1).max(LIMITS.pathLength).optional(),
});

export const EventSchema = z.object({
  event_id: UlidSchema,
  parent_event_id: UlidSchema.optional(),
  session_id: idString(LIMITS.idLength),
  actor_id: idString(LIMITS.idLength),
  namespace: NamespaceSchema,
  schema_version: z.literal(1),
  kind: z.enum(EVENT_KINDS),
  body: EventBodySchema,
  valid_time: IsoDateTimeSchema,
  source: EventSourceSchema,
  content_hash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: followed by 64 lower-case hex digits')
    .optional(),
});

export type TextBody = z.infer<typeof TextBodySchema>;
export type MessageBody = z.infer<typeof MessageBodySchema>;
export type JsonBody = z.infer<typeof JsonBodySchema>;
export type EventBody = z.infer<typeof EventBodySchema>;
export type EventSource = z.infer<typeof EventSourceSchema>;
export type Event = z.infer<typeof EventSchema>;

/** The text a body carries, for search and previews: text → content, message → turns, json → JSON. */
export function bodyText(body: EventBody): string {
  switch (body.type) {
    case 'text':
      return body.content;
    case 'message':
      return body.turns.map((turn) => turn.content).join('\n');
    case 'json':
      return typeof body.data === 'string' ? body.data : (JSON.stringify(body.data) ?? '');
  }
}

/**
 * The `source` values of a note after which the agent's context no longer holds the
 * session so far: `compact` (its context was compacted: Claude Code's SessionStart after a
 * compaction, and every agent's compaction hook) and `clear` (Claude Code's `/clear`).
 */
const WINDOW_RESETS = new Set(['compact', 'clear']);

/** Whether a session-start or compaction `source` says the agent's context starts again. */
export function resetsWindow(source: unknown): boolean {
  return typeof source === 'string' && WINDOW_RESETS.has(source.toLowerCase());
}

/**
 * Whether an event is a note saying the agent's context was compacted or cleared (its
 * `source`, see resetsWindow): what came before it has left the agent's window.
 */
export function isWindowReset(event: Pick<Event, 'kind' | 'body'>): boolean {
  if (event.kind !== 'note' || event.body.type !== 'json') return false;
  const data = event.body.data;
  return (
    data !== null &&
    typeof data === 'object' &&
    !Array.isArray(data) &&
    resetsWindow((data as { source?: unknown }).source)
  );
}

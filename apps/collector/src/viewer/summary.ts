import { bodyText, type Event, parseNamespace, teamOfNamespace } from '@kiro-learn/schema';
import { type ToolCall, toolCall } from './tool-call.js';

/** What a list row shows of an event: never the whole body, which may be a megabyte. */
export interface EventSummary {
  event_id: string;
  kind: Event['kind'];
  surface: Event['source']['surface'];
  namespace: string;
  project: string;
  session_id: string;
  valid_time: string;
  preview: string;
  /** A tool call's tool, target and outcome (`tool_use` events). */
  tool?: ToolCall;
}

const PREVIEW_CHARS = 240;

export function summarizeEvent(event: Event): EventSummary {
  const text = bodyText(event.body).replace(/\s+/g, ' ').trim();
  return {
    event_id: event.event_id,
    kind: event.kind,
    surface: event.source.surface,
    namespace: event.namespace,
    project: projectName(event.namespace),
    session_id: event.session_id,
    valid_time: event.valid_time,
    preview: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text,
    ...withTool(event),
  };
}

/** `{ tool }` for a tool call, else nothing. */
export function withTool(event: Event): { tool?: ToolCall } {
  const tool = toolCall(event);
  return tool ? { tool } : {};
}

/** The project id of a namespace, or the namespace itself when it does not parse. */
export function projectName(namespace: string): string {
  const projectId = parseNamespace(namespace)?.projectId ?? namespace;
  // On a team server the same project may be shared by several teams: say whose it is.
  const team = teamOfNamespace(namespace);
  return team === undefined ? projectId : `${projectId} (team ${team})`;
}

import { bodyText, type Event, parseNamespace } from '@kiro-learn/schema';
import type { ExtractionLogInput, RetrievalLogInput } from '@kiro-learn/storage';
import { withTool } from './viewer/summary.js';

/** A retrieval the collector answered inline: the retrieval log's shape, with its time. */
export type RetrievalActivity = RetrievalLogInput & { createdAt: string };

/** What happened inside the collector: the SSE stream and the buffer's watcher follow it. */
export type Activity =
  | { type: 'event'; event: Event }
  | { type: 'retrieval'; retrieval: RetrievalActivity }
  | { type: 'extraction'; extraction: ExtractionLogInput };

export type ActivityListener = (activity: Activity) => void;

/**
 * Fans activity out to listeners. A listener that throws is reported through `onError`
 * and never fails the request that caused the activity.
 */
export class ActivityHub {
  readonly #listeners = new Set<ActivityListener>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void = () => {}) {
    this.#onError = onError;
  }

  /** Subscribes; returns the unsubscribe function. */
  on(listener: ActivityListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(activity: Activity): void {
    for (const listener of this.#listeners) {
      try {
        listener(activity);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  get size(): number {
    return this.#listeners.size;
  }
}

const PREVIEW_CHARS = 240;

/** The stream's view of an event: never the whole body, which may be a megabyte. */
export function eventSummary(event: Event) {
  const text = bodyText(event.body)
    .slice(0, PREVIEW_CHARS * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return {
    event_id: event.event_id,
    kind: event.kind,
    surface: event.source.surface,
    namespace: event.namespace,
    project: parseNamespace(event.namespace)?.projectId ?? event.namespace,
    session_id: event.session_id,
    valid_time: event.valid_time,
    preview: text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text,
    ...withTool(event),
  };
}

import {
  DeleteResponseSchema,
  ErrorBodySchema,
  type Event,
  type EventKind,
  type ListEventsResponse,
  ListEventsResponseSchema,
  type ListMemoriesResponse,
  ListMemoriesResponseSchema,
  type MemoryRecord,
  MemoryRecordSchema,
  type ObservationType,
  type PostEventResponse,
  PostEventResponseSchema,
  type PostMemoryResponse,
  PostMemoryResponseSchema,
  type SearchHit,
  SearchHitSchema,
  SearchMemoriesResponseSchema,
} from '@kiro-learn/schema';
import type { z } from 'zod';
import { McpServerError } from './errors.js';

/** Where and how to reach the collector. */
export interface CollectorClientConfig {
  /** `http://host:port` of the collector. */
  baseUrl: string;
  /** Bearer token, when the collector requires one. */
  token?: string;
  /** How long one request may take before the tool reports the collector as unresponsive. */
  timeoutMs: number;
}

type Query = Record<string, string | number | undefined>;

/** The collector's HTTP API (DESIGN.md §3), as the tools use it. Every failure is a McpServerError. */
export interface CollectorClient {
  search(query: {
    namespace: string;
    query: string;
    limit: number;
    type?: ObservationType | undefined;
    file?: string | undefined;
  }): Promise<SearchHit[]>;
  /**
   * The record, or undefined when there is none with that id. With `namespace`, a
   * teammate's record that search_memory found in that project (team memory) too, with its
   * `author`.
   */
  getMemory(recordId: string, namespace?: string): Promise<SearchHit | undefined>;
  /** False when there was no such record. */
  deleteMemory(recordId: string): Promise<boolean>;
  listMemories(query: {
    namespace: string;
    limit: number;
    offset: number;
  }): Promise<ListMemoriesResponse>;
  postMemory(record: MemoryRecord & { supersedes?: string[] }): Promise<PostMemoryResponse>;
  /** Undoes a record's supersession; undefined when there is no such record. */
  clearSupersession(recordId: string): Promise<MemoryRecord | undefined>;
  /** The stored event exactly as the collector sent it, or undefined when there is none. */
  getEventText(eventId: string): Promise<string | undefined>;
  listEvents(query: {
    namespace: string;
    limit: number;
    cursor?: string | undefined;
    kind?: EventKind | undefined;
  }): Promise<ListEventsResponse>;
  postEvent(event: Event): Promise<PostEventResponse>;
}

export function createCollectorClient(config: CollectorClientConfig): CollectorClient {
  const { baseUrl, token, timeoutMs } = config;

  /** The response body as text, or undefined on 404 (absence is an answer, not a failure). */
  async function send(method: string, path: string, query?: Query, body?: unknown) {
    const url = new URL(path, baseUrl);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        signal: AbortSignal.timeout(timeoutMs),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      throw new McpServerError(
        'collector_unreachable',
        timedOut
          ? `the kiro-learn collector at ${baseUrl} did not answer within ${timeoutMs / 1000} s: check it with \`kiro-learn status\``
          : `the kiro-learn collector is not running at ${baseUrl}: start it with \`kiro-learn start\``,
      );
    }
    if (response.status === 404) return undefined;
    if (!response.ok) throw refusal(response.status, text);
    return text;
  }

  async function json<T>(
    schema: z.ZodType<T>,
    method: string,
    path: string,
    query?: Query,
    body?: unknown,
  ) {
    const text = await send(method, path, query, body);
    return text === undefined ? undefined : parse(schema, text, path);
  }

  async function required<T>(
    schema: z.ZodType<T>,
    method: string,
    path: string,
    query?: Query,
    body?: unknown,
  ) {
    const value = await json(schema, method, path, query, body);
    if (value === undefined)
      throw unexpected(path, 'route not found (is the collector up to date?)');
    return value;
  }

  const id = (value: string) => encodeURIComponent(value);

  return {
    search: (q) => required(SearchMemoriesResponseSchema, 'GET', '/v1/memories/search', q),
    getMemory: (recordId, namespace) =>
      json(
        SearchHitSchema,
        'GET',
        `/v1/memories/${id(recordId)}`,
        namespace ? { namespace } : undefined,
      ),
    deleteMemory: async (recordId) =>
      (await json(DeleteResponseSchema, 'DELETE', `/v1/memories/${id(recordId)}`)) !== undefined,
    listMemories: (q) => required(ListMemoriesResponseSchema, 'GET', '/v1/memories', q),
    postMemory: (record) =>
      required(PostMemoryResponseSchema, 'POST', '/v1/memories', undefined, record),
    clearSupersession: (recordId) =>
      json(MemoryRecordSchema, 'DELETE', `/v1/memories/${id(recordId)}/supersession`),
    getEventText: (eventId) => send('GET', `/v1/events/${id(eventId)}`),
    listEvents: (q) => required(ListEventsResponseSchema, 'GET', '/v1/events', q),
    postEvent: (event) => required(PostEventResponseSchema, 'POST', '/v1/events', undefined, event),
  };
}

function parse<T>(schema: z.ZodType<T>, text: string, path: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unexpected(path, 'not JSON');
  }
  const result = schema.safeParse(value);
  if (!result.success) throw unexpected(path, result.error.issues[0]?.message ?? 'wrong shape');
  return result.data;
}

function unexpected(path: string, why: string): McpServerError {
  return new McpServerError(
    'collector_error',
    `the kiro-learn collector sent an unexpected answer to ${path} (${why}): check that the program on that port is the kiro-learn collector with \`kiro-learn status\``,
  );
}

function refusal(status: number, text: string): McpServerError {
  let reason = text.slice(0, 500);
  try {
    const body = ErrorBodySchema.parse(JSON.parse(text));
    reason = body.error + (body.details === undefined ? '' : `: ${JSON.stringify(body.details)}`);
  } catch {
    // not the collector's error shape: show the raw start of the body
  }
  return new McpServerError(
    'collector_error',
    `the kiro-learn collector refused the request (HTTP ${status}): ${reason.slice(0, 1000)}`,
  );
}

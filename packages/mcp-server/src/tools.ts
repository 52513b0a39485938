import {
  inertLine,
  isRecordId,
  type MemoryRecord,
  newRecordId,
  type ObservationType,
} from '@kiro-learn/schema';
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import type { CollectorClient } from './collector.js';
import { McpServerError } from './errors.js';
import { formatSearch, gist } from './format.js';
import { TOOL_INPUTS } from './inputs.js';
import { TOOL_OUTPUTS, type ToolOutput } from './outputs.js';
import { buildSessionSummary } from './summary.js';
import { oneLine } from './text.js';
import { around, recordPages, turnPages } from './timeline.js';

/** What the tools need from the server around them. */
export interface ToolContext {
  /** The collector's HTTP API. */
  client: CollectorClient;
  /** The current project: its directory and namespace. */
  project(): Promise<{ dir: string; namespace: string }>;
  /** Stores a `note` event recording a save and returns its id (the record's source event). */
  note(tool: string, args: unknown): Promise<string>;
}

/** A tool's answer: text for the model, the same as structured content for programs. */
interface Answer<T> {
  text: string;
  data: T;
}

/** Runs a tool body; any failure becomes an `isError` result the model can read and act on. */
async function safely<T extends object>(body: () => Promise<Answer<T>>): Promise<CallToolResult> {
  try {
    const { text, data } = await body();
    return {
      content: [{ type: 'text', text }],
      structuredContent: data as { [key: string]: unknown },
    };
  } catch (error) {
    const message =
      error instanceof McpServerError
        ? error.message
        : `kiro-learn failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`;
    return { content: [{ type: 'text', text: message }], isError: true };
  }
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
const WRITES = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

/** Registers the eight kiro-learn tools on `server`. */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  const { client } = ctx;

  /** A record of the current project, or a not_found / other_project error. */
  async function ownRecord(recordId: string): Promise<MemoryRecord> {
    const { namespace } = await ctx.project();
    const record = await client.getMemory(recordId);
    if (!record) {
      throw new McpServerError(
        'not_found',
        `no memory record ${recordId}: check the id with search_memory`,
      );
    }
    if (record.namespace !== namespace) {
      throw new McpServerError(
        'other_project',
        `record ${recordId} belongs to another project; these tools only reach the current project's records`,
      );
    }
    return record;
  }

  async function save(
    tool: string,
    args: unknown,
    fields: Omit<MemoryRecord, 'record_id' | 'namespace' | 'source_event_ids' | 'created_at'>,
    supersedes: readonly string[] = [],
  ): Promise<Answer<ToolOutput<'save_observation'>>> {
    const { namespace } = await ctx.project();
    // What it replaces must be this project's records (the collector checks again).
    for (const id of supersedes) await ownRecord(id);
    const eventId = await ctx.note(tool, args);
    const { record_id, superseded } = await client.postMemory({
      record_id: newRecordId(),
      namespace,
      source_event_ids: [eventId],
      created_at: new Date().toISOString(),
      ...fields,
      ...(supersedes.length ? { supersedes: [...supersedes] } : {}),
    });
    const retired = superseded?.length
      ? ` It supersedes ${superseded.join(', ')} (kept, marked superseded; undo_supersession undoes a wrong one).`
      : '';
    return {
      text: `Saved ${fields.observation_type} record ${record_id}: "${fields.title}" (source event ${eventId}).${retired}`,
      data: {
        record_id,
        source_event_id: eventId,
        observation_type: fields.observation_type,
        title: fields.title,
        ...(superseded?.length ? { superseded } : {}),
      },
    };
  }

  server.registerTool(
    'search_memory',
    {
      title: 'Search project memory',
      description:
        "Search this project's kiro-learn memory: decisions, errors and their fixes, patterns, discoveries and session summaries from earlier sessions. Use it before investigating something that may have come up before, or when the user refers to earlier work. Returns one line per record (id, type, date, title, gist), best first; then call get_memories for the few records you need in full.",
      inputSchema: TOOL_INPUTS.search_memory,
      outputSchema: TOOL_OUTPUTS.search_memory,
      annotations: READ_ONLY,
    },
    (args) =>
      safely(async () => {
        const { namespace } = await ctx.project();
        const found = await client.search({ namespace, ...args });
        // The collector scopes by namespace already; checked again so no other project leaks.
        const records = found.filter((record) => record.namespace === namespace);
        return {
          text: formatSearch(args.query, records),
          data: {
            query: args.query,
            records: records.map((record) => ({
              record_id: record.record_id,
              observation_type: record.observation_type,
              created_at: record.created_at,
              title: record.title,
              gist: gist(record.summary),
              ...(record.superseded_by ? { superseded_by: record.superseded_by } : {}),
              ...(record.author ? { author: record.author } : {}),
            })),
          },
        };
      }),
  );

  server.registerTool(
    'get_memories',
    {
      title: 'Get memory records',
      description:
        'Full memory records by id: summary, facts, concepts, files touched and source event ids, as JSON. Use after search_memory or timeline, for the records whose details you need.',
      inputSchema: TOOL_INPUTS.get_memories,
      outputSchema: TOOL_OUTPUTS.get_memories,
      annotations: READ_ONLY,
    },
    ({ ids }) =>
      safely(async () => {
        const { namespace } = await ctx.project();
        const unique = [...new Set(ids)];
        // With the namespace: a teammate's record search_memory showed is found as well.
        const found = await Promise.all(unique.map((id) => client.getMemory(id, namespace)));
        const records = found.filter(
          (record): record is MemoryRecord => record?.namespace === namespace,
        );
        const missing = unique.filter((id) => !records.some((record) => record.record_id === id));
        if (records.length === 0) {
          throw new McpServerError(
            'not_found',
            `none of these ids is a memory record of this project: ${missing.join(', ')}. Find ids with search_memory or timeline`,
          );
        }
        const note =
          missing.length > 0 ? `\n\nNot found in this project: ${missing.join(', ')}` : '';
        // JSON keeps every field on its line; `<` as \u003c (still JSON) so no field opens a tag.
        const json = JSON.stringify(records, null, 2).replaceAll('<', '\\u003c');
        return { text: json + note, data: { records, missing } };
      }),
  );

  server.registerTool(
    'timeline',
    {
      title: 'Project timeline',
      description:
        "What happened in this project around a point, oldest first: memory records and turn summaries, one line each. Pass a record id to see the work around it, or an ISO time; without `around`, the most recent history. Use get_memories or get_event on a line's id for details.",
      inputSchema: TOOL_INPUTS.timeline,
      outputSchema: TOOL_OUTPUTS.timeline,
      annotations: READ_ONLY,
    },
    ({ around: point, before, after }) =>
      safely(async () => {
        const { namespace } = await ctx.project();
        let anchor = Date.now();
        let label = 'now';
        if (point !== undefined && isRecordId(point)) {
          anchor = Date.parse((await ownRecord(point)).created_at);
          label = `record ${point}`;
        } else if (point !== undefined) {
          anchor = Date.parse(point);
          label = point;
        }
        const [records, turns] = await Promise.all([
          around(recordPages(client, namespace), anchor, before, after),
          around(turnPages(client, namespace), anchor, before, after),
        ]);
        const merged = [...records, ...turns].sort((a, b) => b.at - a.at);
        const entries = await around([merged], anchor, before, after);
        const data = {
          around: label,
          entries: entries.map(({ at, id, kind, line }) => ({
            time: new Date(at).toISOString(),
            id,
            kind,
            line,
          })),
        };
        if (entries.length === 0) {
          return { text: `Nothing is recorded in this project around ${label}.`, data };
        }
        const text = [
          `Timeline of this project around ${label}, oldest first (time · id · what):`,
          '',
          ...entries.map((entry) => entry.line),
        ].join('\n');
        return { text, data };
      }),
  );

  server.registerTool(
    'get_event',
    {
      title: 'Get raw event',
      description:
        "The raw stored event (a prompt, tool use, turn summary or note) by id, exactly as stored, as JSON. Use it to recover a detail a memory record's summary left out: a record's source_event_ids name the events it was distilled from.",
      inputSchema: TOOL_INPUTS.get_event,
      outputSchema: TOOL_OUTPUTS.get_event,
      annotations: READ_ONLY,
    },
    ({ event_id }) =>
      safely(async () => {
        const { namespace } = await ctx.project();
        const raw = await client.getEventText(event_id);
        if (raw === undefined) {
          throw new McpServerError(
            'not_found',
            `no event ${event_id}: take event ids from a record's source_event_ids`,
          );
        }
        let stored: unknown;
        try {
          stored = JSON.parse(raw);
        } catch {
          stored = undefined;
        }
        if ((stored as { namespace?: unknown } | undefined)?.namespace !== namespace) {
          throw new McpServerError(
            'other_project',
            `event ${event_id} belongs to another project; get_event only returns the current project's events`,
          );
        }
        // The collector's bytes, untouched: re-serialising could reorder or re-escape fields.
        return { text: raw, data: { event: stored as { [key: string]: unknown } } };
      }),
  );

  server.registerTool(
    'save_session_summary',
    {
      title: 'Save session summary',
      description:
        "Save a summary of this session's work to kiro-learn memory so future sessions start informed. Call it at the end of a substantial turn (a fix, a feature, an investigation), not after small talk or trivial edits. The summary is laid out as four sections (investigated, learned, completed, next steps); if together they exceed 4000 characters, whole sections are dropped from the bottom, so put the essentials first. Secrets are scrubbed before storage.",
      inputSchema: TOOL_INPUTS.save_session_summary,
      outputSchema: TOOL_OUTPUTS.save_session_summary,
      annotations: WRITES,
    },
    (args) =>
      safely(() =>
        save('save_session_summary', args, {
          strategy: 'mcp_session_summary',
          observation_type: 'session_summary',
          facts: [],
          concepts: [],
          ...buildSessionSummary(args),
        }),
      ),
  );

  server.registerTool(
    'save_observation',
    {
      title: 'Save observation',
      description:
        'Save one durable piece of knowledge about this project to kiro-learn memory: a decision and its reason, an error and its fix, a pattern, a discovery. Use it when you learn something a future session would otherwise have to rediscover. Keep it self-contained; secrets are scrubbed before storage.',
      inputSchema: TOOL_INPUTS.save_observation,
      outputSchema: TOOL_OUTPUTS.save_observation,
      annotations: WRITES,
    },
    (args) =>
      safely(() =>
        save(
          'save_observation',
          args,
          {
            strategy: 'mcp_observation',
            observation_type: args.observation_type as ObservationType,
            title: oneLine(args.title),
            summary: args.summary,
            facts: args.facts,
            concepts: args.concepts,
            files_touched: [...new Set(args.files)],
          },
          [...new Set(args.supersedes)],
        ),
      ),
  );

  server.registerTool(
    'forget_memory',
    {
      title: 'Forget memory record',
      description:
        'Delete one memory record of this project, for example one that is wrong or outdated. This cannot be undone; the raw events it came from are kept.',
      inputSchema: TOOL_INPUTS.forget_memory,
      outputSchema: TOOL_OUTPUTS.forget_memory,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ record_id }) =>
      safely(async () => {
        const record = await ownRecord(record_id);
        if (!(await client.deleteMemory(record_id))) {
          throw new McpServerError(
            'not_found',
            `no memory record ${record_id}: it may already be deleted`,
          );
        }
        return {
          text: `Deleted record ${record_id}: "${inertLine(record.title)}". Its source events are kept.`,
          data: { record_id, title: record.title, deleted: true as const },
        };
      }),
  );

  server.registerTool(
    'undo_supersession',
    {
      title: 'Undo a supersession',
      description:
        'A record of this project was marked superseded (replaced by a newer record) by mistake: make it current again. search_memory shows superseded records with the id of the record that replaced them.',
      inputSchema: TOOL_INPUTS.undo_supersession,
      outputSchema: TOOL_OUTPUTS.undo_supersession,
      annotations: { ...WRITES, idempotentHint: true },
    },
    ({ record_id }) =>
      safely(async () => {
        const record = await ownRecord(record_id);
        const restored = await client.clearSupersession(record_id);
        if (!restored) {
          throw new McpServerError(
            'not_found',
            `no memory record ${record_id}: it may have been deleted`,
          );
        }
        return {
          text: record.superseded_by
            ? `Record ${record_id} ("${inertLine(record.title)}") is current again; it was marked superseded by ${record.superseded_by}.`
            : `Record ${record_id} ("${inertLine(record.title)}") was not superseded; nothing changed.`,
          data: {
            record_id,
            title: record.title,
            ...(record.superseded_by ? { was_superseded_by: record.superseded_by } : {}),
            current: true as const,
          },
        };
      }),
  );
}

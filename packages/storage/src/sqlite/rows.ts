import { createHash } from 'node:crypto';
import type { MemoryRecord } from '@kiro-learn/schema';
import { recordSupersession, supersessionColumns } from '../supersession.js';
import type { RecordRow } from './tables.js';

export function rowFromRecord(record: MemoryRecord): RecordRow {
  return {
    rid: undefined,
    record_id: record.record_id,
    namespace: record.namespace,
    strategy: record.strategy,
    title: record.title,
    summary: record.summary,
    facts: JSON.stringify(record.facts),
    concepts: JSON.stringify(record.concepts),
    files: JSON.stringify(record.files_touched),
    observation_type: record.observation_type,
    source_event_ids: JSON.stringify(record.source_event_ids),
    created_at: record.created_at,
    updated_at: record.updated_at ?? null,
    metadata: record.metadata === undefined ? null : JSON.stringify(record.metadata),
    ns_token: namespaceToken(record.namespace),
    ...supersessionColumns(record),
  };
}

export function recordFromRow(row: RecordRow): MemoryRecord {
  return {
    record_id: row.record_id,
    namespace: row.namespace,
    strategy: row.strategy,
    title: row.title,
    summary: row.summary,
    facts: JSON.parse(row.facts) as string[],
    concepts: JSON.parse(row.concepts) as string[],
    files_touched: JSON.parse(row.files) as string[],
    observation_type: row.observation_type as MemoryRecord['observation_type'],
    source_event_ids: JSON.parse(row.source_event_ids) as string[],
    created_at: row.created_at,
    ...(row.updated_at !== null ? { updated_at: row.updated_at } : {}),
    ...(row.metadata !== null
      ? { metadata: JSON.parse(row.metadata) as Record<string, unknown> }
      : {}),
    ...recordSupersession(row),
  };
}

/**
 * One index token per namespace (letters and digits only, so FTS5 keeps it whole). Search
 * intersects it with the query terms inside FTS5, so only the namespace's matches are
 * ranked; the namespace column itself is still compared exactly afterwards.
 */
export function namespaceToken(namespace: string): string {
  return `ns${createHash('sha256').update(namespace).digest('hex').slice(0, 24)}`;
}

import { parseOrThrow } from './errors.js';
import { newEventId, newRecordId } from './ids.js';
import { type MemoryRecord, MemoryRecordSchema } from './memory.js';

/** What `newRecord` needs: the namespace and the words; every other field may be given. */
export type NewRecordFields = Pick<MemoryRecord, 'namespace' | 'title' | 'summary'> &
  Partial<MemoryRecord>;

/**
 * A valid memory record from the fields that matter, the rest defaulted: a new record id,
 * created now, strategy `manual`, type `discovery`, empty facts, concepts and files, and
 * one new event id as its source (a record written by hand has no stored event behind it;
 * pass `source_event_ids` when it has). Throws SchemaError (its `issues` are `dot.path: message` lines)
 * when a field is invalid.
 */
export function newRecord(fields: NewRecordFields): MemoryRecord {
  return parseOrThrow(
    MemoryRecordSchema,
    {
      record_id: newRecordId(),
      strategy: 'manual',
      facts: [],
      concepts: [],
      files_touched: [],
      observation_type: 'discovery',
      source_event_ids: [newEventId()],
      created_at: new Date().toISOString(),
      ...fields,
    },
    'memory record',
  );
}

import { type Kysely, sql } from 'kysely';
import { type Migration, migrationChecksum, runMigrations } from '../migrate.js';
import { RECORD_COLUMNS, RECORD_CONTENT_COLUMNS } from '../rows.js';

/** A forward-only migration: SQL statements run in one transaction. */
export type { Migration } from '../migrate.js';

const TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** The current time as the ISO text the backend writes (`2026-11-23T05:47:36.123Z`). */
const ISO_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** Content columns added by 0011 (questions, supersession): an edit of these is pushed too. */
const RECORD_CONTENT_COLUMNS_0011 = RECORD_COLUMNS;

/** The full-text index's columns, in order (bm25 weights follow it), from 0011 on. */
const FTS_COLUMNS_0011 = 'title, summary, facts, concepts, files, questions, ns_token';
const FTS_NEW_0011 =
  'new.rid, new.title, new.summary, new.facts, new.concepts, new.files, new.questions, new.ns_token';
const FTS_OLD_0011 =
  'old.rid, old.title, old.summary, old.facts, old.concepts, old.files, old.questions, old.ns_token';

/** A trigger condition: any of these columns changed. */
const changed = (columns: readonly string[]) =>
  columns.map((c) => `old.${c} IS NOT new.${c}`).join(' OR ');

/**
 * The schema, in order. Never edit a migration that has shipped: add a new one. The
 * checksum of each applied migration is stored, so an edited one is reported as drift.
 * This file is long on purpose: the schema's whole history, read top to bottom in the order
 * it runs; a shipped migration is frozen, so it is neither split nor shortened.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    name: '0001_initial',
    statements: [
      `CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id TEXT NOT NULL UNIQUE,
        namespace TEXT NOT NULL,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        valid_time TEXT NOT NULL,
        received_at TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        json TEXT NOT NULL
      )`,
      'CREATE INDEX events_namespace_seq ON events (namespace, seq)',
      'CREATE INDEX events_session_seq ON events (session_id, seq)',
      `CREATE TABLE memory_records (
        rid INTEGER PRIMARY KEY,
        record_id TEXT NOT NULL UNIQUE,
        namespace TEXT NOT NULL,
        strategy TEXT NOT NULL,
        title TEXT NOT NULL,
        summary TEXT NOT NULL,
        facts TEXT NOT NULL,
        concepts TEXT NOT NULL,
        files TEXT NOT NULL,
        observation_type TEXT NOT NULL,
        source_event_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT,
        metadata TEXT,
        ns_token TEXT NOT NULL
      )`,
      'CREATE INDEX memory_records_namespace_created ON memory_records (namespace, created_at, record_id)',
      'CREATE INDEX memory_records_created ON memory_records (created_at, record_id)',
      `CREATE VIRTUAL TABLE memory_fts USING fts5(
        title, summary, facts, concepts, files, ns_token,
        content='memory_records', content_rowid='rid', tokenize='${TOKENIZER}'
      )`,
      "CREATE VIRTUAL TABLE memory_vocab USING fts5vocab(memory_fts, 'row')",
      `CREATE TRIGGER memory_records_ai AFTER INSERT ON memory_records BEGIN
        INSERT INTO memory_fts (rowid, title, summary, facts, concepts, files, ns_token)
        VALUES (new.rid, new.title, new.summary, new.facts, new.concepts, new.files, new.ns_token);
        INSERT INTO namespace_counts (namespace, memories) VALUES (new.namespace, 1)
          ON CONFLICT (namespace) DO UPDATE SET memories = memories + 1;
        INSERT INTO type_counts (namespace, observation_type, n) VALUES (new.namespace, new.observation_type, 1)
          ON CONFLICT (namespace, observation_type) DO UPDATE SET n = n + 1;
      END`,
      `CREATE TRIGGER memory_records_ad AFTER DELETE ON memory_records BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, title, summary, facts, concepts, files, ns_token)
        VALUES ('delete', old.rid, old.title, old.summary, old.facts, old.concepts, old.files, old.ns_token);
        UPDATE namespace_counts SET memories = memories - 1 WHERE namespace = old.namespace;
        UPDATE type_counts SET n = n - 1
          WHERE namespace = old.namespace AND observation_type = old.observation_type;
      END`,
      `CREATE TRIGGER memory_records_au AFTER UPDATE ON memory_records BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, title, summary, facts, concepts, files, ns_token)
        VALUES ('delete', old.rid, old.title, old.summary, old.facts, old.concepts, old.files, old.ns_token);
        INSERT INTO memory_fts (rowid, title, summary, facts, concepts, files, ns_token)
        VALUES (new.rid, new.title, new.summary, new.facts, new.concepts, new.files, new.ns_token);
        UPDATE type_counts SET n = n - 1
          WHERE namespace = old.namespace AND observation_type = old.observation_type;
        INSERT INTO type_counts (namespace, observation_type, n) VALUES (new.namespace, new.observation_type, 1)
          ON CONFLICT (namespace, observation_type) DO UPDATE SET n = n + 1;
      END`,
      `CREATE TABLE namespace_counts (
        namespace TEXT PRIMARY KEY,
        events INTEGER NOT NULL DEFAULT 0,
        memories INTEGER NOT NULL DEFAULT 0,
        last_event_at TEXT
      ) WITHOUT ROWID`,
      `CREATE TABLE kind_counts (
        namespace TEXT NOT NULL, kind TEXT NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (namespace, kind)
      ) WITHOUT ROWID`,
      `CREATE TABLE type_counts (
        namespace TEXT NOT NULL, observation_type TEXT NOT NULL, n INTEGER NOT NULL,
        PRIMARY KEY (namespace, observation_type)
      ) WITHOUT ROWID`,
      `CREATE TRIGGER events_ai AFTER INSERT ON events BEGIN
        INSERT INTO namespace_counts (namespace, events, last_event_at) VALUES (new.namespace, 1, new.received_at)
          ON CONFLICT (namespace) DO UPDATE SET events = events + 1, last_event_at = new.received_at;
        INSERT INTO kind_counts (namespace, kind, n) VALUES (new.namespace, new.kind, 1)
          ON CONFLICT (namespace, kind) DO UPDATE SET n = n + 1;
      END`,
      `CREATE TABLE pending (
        namespace TEXT NOT NULL,
        event_id TEXT NOT NULL REFERENCES events (event_id),
        seq INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        appended_at TEXT NOT NULL,
        PRIMARY KEY (namespace, event_id)
      ) WITHOUT ROWID`,
      'CREATE INDEX pending_namespace_seq ON pending (namespace, seq)',
      `CREATE TABLE retrieval_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        namespace TEXT NOT NULL,
        session_id TEXT,
        event_id TEXT,
        query TEXT NOT NULL,
        record_ids TEXT NOT NULL,
        scores TEXT NOT NULL,
        latency_ms REAL NOT NULL,
        timed_out INTEGER NOT NULL,
        budget_cut INTEGER NOT NULL,
        error TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX retrieval_log_namespace ON retrieval_log (namespace, id)',
      'CREATE INDEX retrieval_log_session ON retrieval_log (session_id, id)',
      `CREATE TABLE extraction_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        namespace TEXT NOT NULL,
        extractor TEXT NOT NULL,
        status TEXT NOT NULL,
        batch_size INTEGER NOT NULL,
        records INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        duration_ms REAL NOT NULL,
        error TEXT,
        started_at TEXT NOT NULL
      )`,
      'CREATE INDEX extraction_log_namespace ON extraction_log (namespace, id)',
    ],
  },
  {
    // The viewer lists one project's records of one type, newest first.
    name: '0002_records_by_type',
    statements: [
      'CREATE INDEX memory_records_namespace_type_created ON memory_records (namespace, observation_type, created_at, record_id)',
    ],
  },
  {
    // Semantic search: one embedding per record and model. The namespace is copied from
    // the record so a namespace's vectors load with one index range; `seq` lets a cache
    // pick up new rows, and `vector_generations` tells it a row went away (reload).
    name: '0003_record_vectors',
    statements: [
      `CREATE TABLE record_vectors (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        record_id TEXT NOT NULL REFERENCES memory_records (record_id) ON DELETE CASCADE,
        namespace TEXT NOT NULL,
        model_id TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        UNIQUE (record_id, model_id)
      )`,
      'CREATE INDEX record_vectors_namespace_model ON record_vectors (namespace, model_id, seq)',
      'CREATE INDEX record_vectors_model ON record_vectors (model_id)',
      `CREATE TABLE vector_generations (
        namespace TEXT PRIMARY KEY, generation INTEGER NOT NULL
      ) WITHOUT ROWID`,
      `CREATE TRIGGER record_vectors_ad AFTER DELETE ON record_vectors BEGIN
        INSERT INTO vector_generations (namespace, generation) VALUES (old.namespace, 1)
          ON CONFLICT (namespace) DO UPDATE SET generation = generation + 1;
      END`,
      // An edit of the embedded text makes the vector stale: drop it (reindex re-embeds).
      `CREATE TRIGGER memory_records_vectors_au AFTER UPDATE ON memory_records
        WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary
          OR old.facts IS NOT new.facts OR old.concepts IS NOT new.concepts
          OR old.namespace IS NOT new.namespace
      BEGIN
        DELETE FROM record_vectors WHERE record_id = old.record_id;
      END`,
    ],
  },
  {
    // Events past a project's pending ceiling wait here (in order) until its backlog
    // drains; and a project's newest record of one strategy (the compaction chain head,
    // read for every project on the viewer's projects screen) is an index lookup.
    name: '0004_parked_and_strategy_index',
    statements: [
      `CREATE TABLE parked (
        namespace TEXT NOT NULL,
        event_id TEXT NOT NULL REFERENCES events (event_id),
        seq INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        appended_at TEXT NOT NULL,
        PRIMARY KEY (namespace, event_id)
      ) WITHOUT ROWID`,
      'CREATE INDEX parked_namespace_seq ON parked (namespace, seq)',
      'CREATE INDEX memory_records_namespace_strategy_created ON memory_records (namespace, strategy, created_at, record_id)',
    ],
  },
  {
    // Forget and retention delete events: the counters follow, and a deleted record's
    // terms leave the full-text index at once instead of lingering in its segments.
    name: '0005_forget',
    statements: [
      `CREATE TRIGGER events_ad AFTER DELETE ON events BEGIN
        UPDATE namespace_counts SET events = events - 1 WHERE namespace = old.namespace;
        UPDATE kind_counts SET n = n - 1 WHERE namespace = old.namespace AND kind = old.kind;
      END`,
      "INSERT INTO memory_fts (memory_fts, rank) VALUES ('secure-delete', 1)",
      // Terms of records edited or deleted before this migration: merged away once.
      "INSERT INTO memory_fts (memory_fts) VALUES ('optimize')",
      'CREATE INDEX events_received ON events (received_at)',
    ],
  },
  {
    // Members of a team memory server: named bearer tokens, stored as SHA-256 hashes.
    name: '0006_members',
    statements: [
      `CREATE TABLE members (
        name TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      )`,
    ],
  },
  {
    // Team memory: each member belongs to one team; a record members share carries its
    // team, author and revision here (the record itself is an ordinary memory record, so
    // search, vectors, forget and export see it; deleting it deletes this row).
    name: '0007_team',
    statements: [
      "ALTER TABLE members ADD COLUMN team TEXT NOT NULL DEFAULT 'default'",
      `CREATE TABLE team_records (
        record_id TEXT PRIMARY KEY REFERENCES memory_records (record_id) ON DELETE CASCADE,
        team TEXT NOT NULL,
        author TEXT NOT NULL,
        revision INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID`,
    ],
  },
  {
    // Team memory on a developer's machine: shared namespaces, the outbox of their record
    // writes (queued by triggers, in the writing transaction), and copies of team records
    // that went into a context (for the viewer). Their id columns are not named
    // `record_id` on purpose: forget sweeps every `record_id` table of rows whose record is
    // gone, and a queued delete must outlive its record.
    name: '0008_team_outbox',
    statements: [
      `CREATE TABLE team_shares (
        namespace TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        shared_at TEXT NOT NULL
      ) WITHOUT ROWID`,
      `CREATE TABLE team_outbox (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        shared_record_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        project_id TEXT NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
        queued_at TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      )`,
      'CREATE INDEX team_outbox_namespace ON team_outbox (namespace)',
      // putRecord replaces a record by deleting and inserting it: the delete just queued
      // for it is folded into the put (the put replaces the record there all the same).
      `CREATE TRIGGER team_outbox_ai AFTER INSERT ON memory_records BEGIN
        DELETE FROM team_outbox WHERE seq = (SELECT max(seq) FROM team_outbox)
          AND shared_record_id = new.record_id AND op = 'delete';
        INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
        SELECT new.record_id, new.namespace, s.project_id, 'put', ${ISO_NOW}
        FROM team_shares s WHERE s.namespace = new.namespace;
      END`,
      `CREATE TRIGGER team_outbox_au AFTER UPDATE ON memory_records
        WHEN ${changed(RECORD_CONTENT_COLUMNS)}
      BEGIN
        INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
        SELECT old.record_id, old.namespace, s.project_id, 'delete', ${ISO_NOW}
        FROM team_shares s WHERE s.namespace = old.namespace
          AND (old.record_id IS NOT new.record_id OR old.namespace IS NOT new.namespace);
        INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
        SELECT new.record_id, new.namespace, s.project_id, 'put', ${ISO_NOW}
        FROM team_shares s WHERE s.namespace = new.namespace;
      END`,
      `CREATE TRIGGER team_outbox_ad AFTER DELETE ON memory_records BEGIN
        INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
        SELECT old.record_id, old.namespace, s.project_id, 'delete', ${ISO_NOW}
        FROM team_shares s WHERE s.namespace = old.namespace;
      END`,
      `CREATE TABLE team_record_copies (
        team_record_id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        author TEXT NOT NULL,
        json TEXT NOT NULL,
        seen_at TEXT NOT NULL
      )`,
      'CREATE INDEX team_record_copies_seen ON team_record_copies (seen_at)',
    ],
  },
  {
    // Reads the viewer and the MCP timeline make: a project's events of one kind (turn
    // summaries among thousands of tool uses) and the last hour of retrievals (the latency
    // chart) are index ranges, not scans of the whole table.
    name: '0009_read_indexes',
    statements: [
      'CREATE INDEX events_namespace_kind_seq ON events (namespace, kind, seq)',
      'CREATE INDEX retrieval_log_created ON retrieval_log (created_at)',
    ],
  },
  {
    // A team server remembers which shared records were deleted, so a later push of one
    // (an author's edit made before the delete reached them) does not bring it back. Its
    // id column is not named `record_id`: forget sweeps those of rows whose record is gone.
    name: '0010_team_tombstones',
    statements: [
      `CREATE TABLE team_tombstones (
        deleted_record_id TEXT PRIMARY KEY,
        team TEXT NOT NULL,
        deleted_by TEXT NOT NULL,
        deleted_at TEXT NOT NULL
      ) WITHOUT ROWID`,
    ],
  },
  {
    // What a record answers and what replaced it. `questions` (JSON list, the questions a
    // record answers) becomes a column of the full-text index of its own, so search can
    // weigh it below the record's own text: FTS5 tables cannot gain a column, so the index
    // is rebuilt from the records (its triggers with it). `superseded_by` links a record to
    // the newer one that retired it (indexed for the reverse lookup); an edit of either is
    // pushed to a team like any other content change.
    name: '0011_questions_and_supersession',
    statements: [
      "ALTER TABLE memory_records ADD COLUMN questions TEXT NOT NULL DEFAULT '[]'",
      'ALTER TABLE memory_records ADD COLUMN superseded_by TEXT',
      'ALTER TABLE memory_records ADD COLUMN superseded_at TEXT',
      'ALTER TABLE memory_records ADD COLUMN superseded_reason TEXT',
      'CREATE INDEX memory_records_superseded_by ON memory_records (superseded_by) WHERE superseded_by IS NOT NULL',
      'DROP TRIGGER memory_records_ai',
      'DROP TRIGGER memory_records_ad',
      'DROP TRIGGER memory_records_au',
      'DROP TABLE memory_vocab',
      'DROP TABLE memory_fts',
      `CREATE VIRTUAL TABLE memory_fts USING fts5(
        ${FTS_COLUMNS_0011},
        content='memory_records', content_rowid='rid', tokenize='${TOKENIZER}'
      )`,
      "CREATE VIRTUAL TABLE memory_vocab USING fts5vocab(memory_fts, 'row')",
      "INSERT INTO memory_fts (memory_fts, rank) VALUES ('secure-delete', 1)",
      "INSERT INTO memory_fts (memory_fts) VALUES ('rebuild')",
      `CREATE TRIGGER memory_records_ai AFTER INSERT ON memory_records BEGIN
        INSERT INTO memory_fts (rowid, ${FTS_COLUMNS_0011}) VALUES (${FTS_NEW_0011});
        INSERT INTO namespace_counts (namespace, memories) VALUES (new.namespace, 1)
          ON CONFLICT (namespace) DO UPDATE SET memories = memories + 1;
        INSERT INTO type_counts (namespace, observation_type, n) VALUES (new.namespace, new.observation_type, 1)
          ON CONFLICT (namespace, observation_type) DO UPDATE SET n = n + 1;
      END`,
      `CREATE TRIGGER memory_records_ad AFTER DELETE ON memory_records BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, ${FTS_COLUMNS_0011}) VALUES ('delete', ${FTS_OLD_0011});
        UPDATE namespace_counts SET memories = memories - 1 WHERE namespace = old.namespace;
        UPDATE type_counts SET n = n - 1
          WHERE namespace = old.namespace AND observation_type = old.observation_type;
      END`,
      // The index row changes only with the indexed text (not with a supersession).
      `CREATE TRIGGER memory_records_au AFTER UPDATE ON memory_records
        WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary
          OR old.facts IS NOT new.facts OR old.concepts IS NOT new.concepts
          OR old.files IS NOT new.files OR old.questions IS NOT new.questions
          OR old.ns_token IS NOT new.ns_token OR old.rid IS NOT new.rid
      BEGIN
        INSERT INTO memory_fts (memory_fts, rowid, ${FTS_COLUMNS_0011}) VALUES ('delete', ${FTS_OLD_0011});
        INSERT INTO memory_fts (rowid, ${FTS_COLUMNS_0011}) VALUES (${FTS_NEW_0011});
      END`,
      `CREATE TRIGGER memory_records_types_au AFTER UPDATE ON memory_records
        WHEN old.namespace IS NOT new.namespace OR old.observation_type IS NOT new.observation_type
      BEGIN
        UPDATE type_counts SET n = n - 1
          WHERE namespace = old.namespace AND observation_type = old.observation_type;
        INSERT INTO type_counts (namespace, observation_type, n) VALUES (new.namespace, new.observation_type, 1)
          ON CONFLICT (namespace, observation_type) DO UPDATE SET n = n + 1;
      END`,
      // A deleted record retires nothing: the records it superseded are current again.
      `CREATE TRIGGER memory_records_links_ad AFTER DELETE ON memory_records BEGIN
        UPDATE memory_records SET superseded_by = NULL, superseded_at = NULL, superseded_reason = NULL
          WHERE superseded_by = old.record_id;
      END`,
      'DROP TRIGGER team_outbox_au',
      `CREATE TRIGGER team_outbox_au AFTER UPDATE ON memory_records
        WHEN ${changed(RECORD_CONTENT_COLUMNS_0011)}
      BEGIN
        INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
        SELECT old.record_id, old.namespace, s.project_id, 'delete', ${ISO_NOW}
        FROM team_shares s WHERE s.namespace = old.namespace
          AND (old.record_id IS NOT new.record_id OR old.namespace IS NOT new.namespace);
        INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
        SELECT new.record_id, new.namespace, s.project_id, 'put', ${ISO_NOW}
        FROM team_shares s WHERE s.namespace = new.namespace;
      END`,
    ],
  },
  {
    // Retrieval embeds the questions a record answers after its own text, so an edit of
    // them makes the vector stale too (reindex, or the collector's catch-up, re-embeds);
    // vectors of records that already have questions were made without them.
    name: '0012_vectors_follow_questions',
    statements: [
      'DROP TRIGGER memory_records_vectors_au',
      `CREATE TRIGGER memory_records_vectors_au AFTER UPDATE ON memory_records
        WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary
          OR old.facts IS NOT new.facts OR old.concepts IS NOT new.concepts
          OR old.questions IS NOT new.questions OR old.namespace IS NOT new.namespace
      BEGIN
        DELETE FROM record_vectors WHERE record_id = old.record_id;
      END`,
      `DELETE FROM record_vectors WHERE record_id IN
        (SELECT record_id FROM memory_records WHERE questions <> '[]')`,
    ],
  },
  {
    // An impact-ordered copy of the full-text index's postings (see impacts.ts): per index
    // term and namespace, the records in the order of their BM25 contribution, so a top-k
    // search stops after the first rows of each word instead of scoring every record that
    // holds it. A deleted or edited record's rows go in the same statement (by rid); new
    // and edited records are queued and tokenised in the next write transaction. Existing
    // records are queued here and tokenised in the background; search uses the table only
    // once the queue is empty.
    name: '0013_impact_postings',
    statements: [
      `CREATE TABLE impact_namespaces (
        id INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL UNIQUE
      )`,
      `CREATE TABLE impact_postings (
        term TEXT NOT NULL,
        ns INTEGER NOT NULL,
        impact INTEGER NOT NULL,
        rid INTEGER NOT NULL,
        tf INTEGER NOT NULL,
        len INTEGER NOT NULL,
        PRIMARY KEY (term, ns, impact, rid)
      ) WITHOUT ROWID`,
      'CREATE INDEX impact_postings_rid ON impact_postings (rid)',
      'CREATE TABLE impact_queue (rid INTEGER PRIMARY KEY)',
      'INSERT INTO impact_queue (rid) SELECT rid FROM memory_records',
      `CREATE TRIGGER memory_records_impacts_ai AFTER INSERT ON memory_records BEGIN
        INSERT OR IGNORE INTO impact_queue (rid) VALUES (new.rid);
      END`,
      `CREATE TRIGGER memory_records_impacts_ad AFTER DELETE ON memory_records BEGIN
        DELETE FROM impact_postings WHERE rid = old.rid;
        DELETE FROM impact_queue WHERE rid = old.rid;
        DELETE FROM impact_namespaces WHERE namespace = old.namespace
          AND NOT EXISTS (SELECT 1 FROM memory_records WHERE namespace = old.namespace);
      END`,
      `CREATE TRIGGER memory_records_impacts_au AFTER UPDATE ON memory_records
        WHEN old.title IS NOT new.title OR old.summary IS NOT new.summary
          OR old.facts IS NOT new.facts OR old.concepts IS NOT new.concepts
          OR old.files IS NOT new.files OR old.questions IS NOT new.questions
          OR old.ns_token IS NOT new.ns_token OR old.namespace IS NOT new.namespace
          OR old.rid IS NOT new.rid
      BEGIN
        DELETE FROM impact_postings WHERE rid = old.rid;
        DELETE FROM impact_queue WHERE rid = old.rid;
        INSERT OR IGNORE INTO impact_queue (rid) VALUES (new.rid);
        DELETE FROM impact_namespaces WHERE namespace = old.namespace
          AND NOT EXISTS (SELECT 1 FROM memory_records WHERE namespace = old.namespace);
      END`,
    ],
  },
  {
    // Terms no search can use any more (in more records than the postings budget: the
    // planner drops them) lose their impact rows and get none again; a search that asks
    // for one after all (a larger budget) is scored in FTS5.
    name: '0014_impact_stopped_terms',
    statements: ['CREATE TABLE impact_stopped (term TEXT PRIMARY KEY) WITHOUT ROWID'],
  },
  {
    // The shortest record of each term's list (a lower bound: kept by min() as rows come,
    // left as is when some go): the top-k's bound on an unread row is then tight where the
    // index's average length is below the reference one (impacts.ts, `boundAt`). A list's
    // length goes with its last row, so nothing of a forgotten record's words stays.
    name: '0015_impact_lengths',
    statements: [
      `CREATE TABLE impact_lengths (
        term TEXT NOT NULL,
        ns INTEGER NOT NULL,
        len INTEGER NOT NULL,
        PRIMARY KEY (term, ns)
      ) WITHOUT ROWID`,
      `INSERT INTO impact_lengths (term, ns, len)
        SELECT term, ns, min(len) FROM impact_postings GROUP BY term, ns`,
      `CREATE TRIGGER impact_postings_lengths_ad AFTER DELETE ON impact_postings BEGIN
        DELETE FROM impact_lengths WHERE term = old.term AND ns = old.ns
          AND NOT EXISTS (SELECT 1 FROM impact_postings WHERE term = old.term AND ns = old.ns);
      END`,
    ],
  },
];

/** A migration's stored checksum (migrationChecksum). */
export const checksum = migrationChecksum;

/**
 * Applies pending migrations (runMigrations: in order, each in its own transaction with its
 * bookkeeping row; drift refused).
 */
export async function migrate(db: Kysely<unknown>, migrations = MIGRATIONS): Promise<string[]> {
  return runMigrations(migrations, {
    async applied() {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL
  )`.execute(db);
      const { rows } = await sql<{ name: string; checksum: string }>`
    SELECT name, checksum FROM schema_migrations ORDER BY name`.execute(db);
      return rows;
    },
    async apply(migration, sum) {
      await db.transaction().execute(async (trx) => {
        for (const statement of migration.statements) await sql.raw(statement).execute(trx);
        await sql`INSERT INTO schema_migrations (name, checksum, applied_at)
          VALUES (${migration.name}, ${sum}, ${new Date().toISOString()})`.execute(trx);
      });
    },
  });
}

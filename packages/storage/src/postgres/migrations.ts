import { type Migration, migrationChecksum, runMigrations } from '../migrate.js';

/** A PostgreSQL migration (the Migration both backends run). */
export type PgMigration = Migration;

/**
 * The PostgreSQL schema, in order. Never edit a migration that has shipped: add a new one.
 * The checksum of each applied migration is stored, so an edited one is reported as drift.
 *
 * The same tables as the SQLite schema; differences: text keys compare bytewise
 * (`COLLATE "C"`, as SQLite does), the search vector is a `tsvector` column with a GIN
 * index (built by the backend from the record's fields, see search.ts), counters are kept
 * by PL/pgSQL triggers, and stored events are announced with NOTIFY (per batch, while
 * someone watches) so that every collector on the database can feed its live stream.
 *
 * Longer than a module should be, on purpose: the schema's whole history, read top to
 * bottom in the order it runs. A shipped migration is frozen (its checksum is stored), so
 * it is neither split nor shortened; the next one is appended.
 */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    name: '0001_initial',
    statements: [
      `CREATE TABLE events (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id TEXT COLLATE "C" NOT NULL UNIQUE,
        namespace TEXT COLLATE "C" NOT NULL,
        session_id TEXT COLLATE "C" NOT NULL,
        kind TEXT COLLATE "C" NOT NULL,
        valid_time TEXT NOT NULL,
        received_at TEXT COLLATE "C" NOT NULL,
        bytes INTEGER NOT NULL,
        json TEXT NOT NULL
      )`,
      'CREATE INDEX events_namespace_seq ON events (namespace, seq)',
      'CREATE INDEX events_session_seq ON events (session_id, seq)',
      `CREATE TABLE memory_records (
        record_id TEXT COLLATE "C" PRIMARY KEY,
        namespace TEXT COLLATE "C" NOT NULL,
        strategy TEXT COLLATE "C" NOT NULL,
        title TEXT NOT NULL,
        summary TEXT NOT NULL,
        facts TEXT NOT NULL,
        concepts TEXT NOT NULL,
        files TEXT NOT NULL,
        observation_type TEXT COLLATE "C" NOT NULL,
        source_event_ids TEXT NOT NULL,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT,
        metadata TEXT,
        search TSVECTOR NOT NULL
      )`,
      'CREATE INDEX memory_records_namespace_created ON memory_records (namespace, created_at, record_id)',
      'CREATE INDEX memory_records_created ON memory_records (created_at, record_id)',
      'CREATE INDEX memory_records_namespace_type_created ON memory_records (namespace, observation_type, created_at, record_id)',
      'CREATE INDEX memory_records_search ON memory_records USING GIN (search)',
      `CREATE TABLE namespace_counts (
        namespace TEXT COLLATE "C" PRIMARY KEY,
        events BIGINT NOT NULL DEFAULT 0,
        memories BIGINT NOT NULL DEFAULT 0,
        last_event_at TEXT COLLATE "C"
      )`,
      `CREATE TABLE kind_counts (
        namespace TEXT COLLATE "C" NOT NULL, kind TEXT COLLATE "C" NOT NULL, n BIGINT NOT NULL,
        PRIMARY KEY (namespace, kind)
      )`,
      `CREATE TABLE type_counts (
        namespace TEXT COLLATE "C" NOT NULL, observation_type TEXT COLLATE "C" NOT NULL,
        n BIGINT NOT NULL,
        PRIMARY KEY (namespace, observation_type)
      )`,
      // Every counter update of a namespace first locks its namespace_counts row, so
      // concurrent writers of one namespace queue on one row and never deadlock.
      `CREATE FUNCTION events_after_insert() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts AS c (namespace, events, last_event_at)
          VALUES (NEW.namespace, 1, NEW.received_at)
          ON CONFLICT (namespace) DO UPDATE
            SET events = c.events + 1, last_event_at = GREATEST(c.last_event_at, EXCLUDED.last_event_at);
        INSERT INTO kind_counts AS k (namespace, kind, n) VALUES (NEW.namespace, NEW.kind, 1)
          ON CONFLICT (namespace, kind) DO UPDATE SET n = k.n + 1;
        PERFORM pg_notify('kiro_learn_events:' || TG_TABLE_SCHEMA,
          json_build_object('event_id', NEW.event_id, 'namespace', NEW.namespace)::text);
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER events_ai AFTER INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION events_after_insert()`,
      `CREATE FUNCTION memory_records_counted() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.namespace = NEW.namespace
           AND OLD.observation_type = NEW.observation_type THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE namespace_counts SET memories = memories - 1 WHERE namespace = OLD.namespace;
          UPDATE type_counts SET n = n - 1
            WHERE namespace = OLD.namespace AND observation_type = OLD.observation_type;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          INSERT INTO namespace_counts AS c (namespace, memories) VALUES (NEW.namespace, 1)
            ON CONFLICT (namespace) DO UPDATE SET memories = c.memories + 1;
          INSERT INTO type_counts AS t (namespace, observation_type, n)
            VALUES (NEW.namespace, NEW.observation_type, 1)
            ON CONFLICT (namespace, observation_type) DO UPDATE SET n = t.n + 1;
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_counts AFTER INSERT OR UPDATE OR DELETE ON memory_records
        FOR EACH ROW EXECUTE FUNCTION memory_records_counted()`,
      `CREATE TABLE pending (
        namespace TEXT COLLATE "C" NOT NULL,
        event_id TEXT COLLATE "C" NOT NULL REFERENCES events (event_id),
        seq BIGINT NOT NULL,
        bytes INTEGER NOT NULL,
        appended_at TEXT NOT NULL,
        PRIMARY KEY (namespace, event_id)
      )`,
      'CREATE INDEX pending_namespace_seq ON pending (namespace, seq)',
      `CREATE TABLE retrieval_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        namespace TEXT COLLATE "C" NOT NULL,
        session_id TEXT COLLATE "C",
        event_id TEXT COLLATE "C",
        query TEXT NOT NULL,
        record_ids TEXT NOT NULL,
        scores TEXT NOT NULL,
        latency_ms DOUBLE PRECISION NOT NULL,
        timed_out BOOLEAN NOT NULL,
        budget_cut BOOLEAN NOT NULL,
        error TEXT,
        created_at TEXT NOT NULL
      )`,
      'CREATE INDEX retrieval_log_namespace ON retrieval_log (namespace, id)',
      'CREATE INDEX retrieval_log_session ON retrieval_log (session_id, id)',
      `CREATE TABLE extraction_log (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        namespace TEXT COLLATE "C" NOT NULL,
        extractor TEXT NOT NULL,
        status TEXT NOT NULL,
        batch_size INTEGER NOT NULL,
        records INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        duration_ms DOUBLE PRECISION NOT NULL,
        error TEXT,
        started_at TEXT NOT NULL
      )`,
      'CREATE INDEX extraction_log_namespace ON extraction_log (namespace, id)',
    ],
  },
  {
    // Several collectors on one database: who extracts a namespace's pending events and
    // until when (the database's clock, so collectors' clocks need not agree); each event
    // notice names the connection that stored it (its application_name), so a collector
    // can leave out its own; and the members of a team server with their token hashes.
    name: '0002_several_collectors',
    statements: [
      `CREATE TABLE extraction_claims (
        namespace TEXT COLLATE "C" PRIMARY KEY,
        owner TEXT COLLATE "C" NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      )`,
      `CREATE OR REPLACE FUNCTION events_after_insert() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts AS c (namespace, events, last_event_at)
          VALUES (NEW.namespace, 1, NEW.received_at)
          ON CONFLICT (namespace) DO UPDATE
            SET events = c.events + 1, last_event_at = GREATEST(c.last_event_at, EXCLUDED.last_event_at);
        INSERT INTO kind_counts AS k (namespace, kind, n) VALUES (NEW.namespace, NEW.kind, 1)
          ON CONFLICT (namespace, kind) DO UPDATE SET n = k.n + 1;
        PERFORM pg_notify('kiro_learn_events:' || TG_TABLE_SCHEMA,
          json_build_object('event_id', NEW.event_id, 'namespace', NEW.namespace,
            'origin', current_setting('application_name'))::text);
        RETURN NULL;
      END $$`,
      `CREATE TABLE members (
        name TEXT COLLATE "C" PRIMARY KEY,
        role TEXT COLLATE "C" NOT NULL,
        token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      )`,
    ],
  },
  {
    // Semantic search, as SQLite's 0003: one embedding per record and model, the namespace
    // copied for a one-range load, `seq` for caches to pick up new rows, and a per-namespace
    // generation bumped on every deletion (caches reload). An edit of the embedded text
    // drops the record's vectors.
    name: '0003_record_vectors',
    statements: [
      `CREATE TABLE record_vectors (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        record_id TEXT COLLATE "C" NOT NULL REFERENCES memory_records (record_id) ON DELETE CASCADE,
        namespace TEXT COLLATE "C" NOT NULL,
        model_id TEXT COLLATE "C" NOT NULL,
        dim INTEGER NOT NULL,
        vector BYTEA NOT NULL,
        UNIQUE (record_id, model_id)
      )`,
      'CREATE INDEX record_vectors_namespace_model ON record_vectors (namespace, model_id, seq)',
      'CREATE INDEX record_vectors_model ON record_vectors (model_id)',
      `CREATE TABLE vector_generations (
        namespace TEXT COLLATE "C" PRIMARY KEY, generation BIGINT NOT NULL
      )`,
      `CREATE FUNCTION record_vectors_deleted() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO vector_generations AS g (namespace, generation) VALUES (OLD.namespace, 1)
          ON CONFLICT (namespace) DO UPDATE SET generation = g.generation + 1;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER record_vectors_ad AFTER DELETE ON record_vectors
        FOR EACH ROW EXECUTE FUNCTION record_vectors_deleted()`,
      `CREATE FUNCTION memory_records_text_changed() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        IF OLD.title IS DISTINCT FROM NEW.title OR OLD.summary IS DISTINCT FROM NEW.summary
           OR OLD.facts IS DISTINCT FROM NEW.facts OR OLD.concepts IS DISTINCT FROM NEW.concepts
           OR OLD.namespace IS DISTINCT FROM NEW.namespace THEN
          DELETE FROM record_vectors WHERE record_id = OLD.record_id;
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_vectors_au AFTER UPDATE ON memory_records
        FOR EACH ROW EXECUTE FUNCTION memory_records_text_changed()`,
    ],
  },
  {
    // Events past a project's pending ceiling wait in `parked` (in order) until its backlog
    // drains, as SQLite's 0004; and the read indexes of SQLite's 0009: a project's events
    // of one kind, the last hour of retrievals.
    name: '0004_parked_and_read_indexes',
    statements: [
      `CREATE TABLE parked (
        namespace TEXT COLLATE "C" NOT NULL,
        event_id TEXT COLLATE "C" NOT NULL REFERENCES events (event_id),
        seq BIGINT NOT NULL,
        bytes INTEGER NOT NULL,
        appended_at TEXT NOT NULL,
        PRIMARY KEY (namespace, event_id)
      )`,
      'CREATE INDEX parked_namespace_seq ON parked (namespace, seq)',
      'CREATE INDEX events_namespace_kind_seq ON events (namespace, kind, seq)',
      'CREATE INDEX retrieval_log_created ON retrieval_log (created_at)',
    ],
  },
  {
    // Team memory, as SQLite's 0007: each member belongs to one team; a shared record's
    // team, author and revision (the record is an ordinary memory record; deleting it
    // deletes this row).
    name: '0005_team',
    statements: [
      `ALTER TABLE members ADD COLUMN team TEXT COLLATE "C" NOT NULL DEFAULT 'default'`,
      `CREATE TABLE team_records (
        record_id TEXT COLLATE "C" PRIMARY KEY REFERENCES memory_records (record_id) ON DELETE CASCADE,
        team TEXT COLLATE "C" NOT NULL,
        author TEXT COLLATE "C" NOT NULL,
        revision BIGINT NOT NULL,
        updated_at TEXT NOT NULL
      )`,
    ],
  },
  {
    // Team memory on a developer's machine: shared namespaces, the outbox of their record
    // writes (queued by a trigger, in the writing transaction), and copies of team records
    // that went into a context (for the viewer). See the SQLite 0008_team_outbox.
    name: '0006_team_outbox',
    statements: [
      `CREATE TABLE team_shares (
        namespace TEXT COLLATE "C" PRIMARY KEY,
        project_id TEXT COLLATE "C" NOT NULL,
        shared_at TEXT COLLATE "C" NOT NULL
      )`,
      `CREATE TABLE team_outbox (
        seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        shared_record_id TEXT COLLATE "C" NOT NULL,
        namespace TEXT COLLATE "C" NOT NULL,
        project_id TEXT COLLATE "C" NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('put', 'delete')),
        queued_at TEXT COLLATE "C" NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      )`,
      'CREATE INDEX team_outbox_namespace ON team_outbox (namespace)',
      `CREATE FUNCTION team_outbox_queue() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      DECLARE
        at TEXT := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      BEGIN
        IF TG_OP = 'UPDATE' AND (
          OLD.record_id, OLD.namespace, OLD.strategy, OLD.title, OLD.summary, OLD.facts,
          OLD.concepts, OLD.files, OLD.observation_type, OLD.source_event_ids, OLD.created_at,
          OLD.updated_at, OLD.metadata
        ) IS NOT DISTINCT FROM (
          NEW.record_id, NEW.namespace, NEW.strategy, NEW.title, NEW.summary, NEW.facts,
          NEW.concepts, NEW.files, NEW.observation_type, NEW.source_event_ids, NEW.created_at,
          NEW.updated_at, NEW.metadata
        ) THEN
          RETURN NULL;
        END IF;
        IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND
            (OLD.record_id <> NEW.record_id OR OLD.namespace <> NEW.namespace)) THEN
          INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
          SELECT OLD.record_id, OLD.namespace, s.project_id, 'delete', at
          FROM team_shares s WHERE s.namespace = OLD.namespace;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
          SELECT NEW.record_id, NEW.namespace, s.project_id, 'put', at
          FROM team_shares s WHERE s.namespace = NEW.namespace;
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER team_outbox_queue AFTER INSERT OR UPDATE OR DELETE ON memory_records
        FOR EACH ROW EXECUTE FUNCTION team_outbox_queue()`,
      `CREATE TABLE team_record_copies (
        team_record_id TEXT COLLATE "C" PRIMARY KEY,
        project_id TEXT COLLATE "C" NOT NULL,
        author TEXT NOT NULL,
        json TEXT NOT NULL,
        seen_at TEXT COLLATE "C" NOT NULL
      )`,
      'CREATE INDEX team_record_copies_seen ON team_record_copies (seen_at)',
    ],
  },
  {
    // Deleted shared records, as SQLite's 0010_team_tombstones: a later push of one is
    // refused instead of bringing it back.
    name: '0007_team_tombstones',
    statements: [
      `CREATE TABLE team_tombstones (
        deleted_record_id TEXT COLLATE "C" PRIMARY KEY,
        team TEXT COLLATE "C" NOT NULL,
        deleted_by TEXT COLLATE "C" NOT NULL,
        deleted_at TEXT COLLATE "C" NOT NULL
      )`,
    ],
  },
  {
    // Counters without a hot row. Every stored event used to UPDATE its namespace's counter
    // rows, locked until commit: writers of one namespace (two collectors, or two batches of
    // one) queued behind each other's WAL flush. The three counter tables now hold deltas:
    // writers only INSERT (one row per namespace and kind per statement, from statement
    // triggers over the rows the statement really inserted or deleted), readers sum, and a
    // compaction folds each key's rows back into one (counters.ts). The rows already there
    // are valid deltas, so nothing is rewritten. A deleted event subtracts itself, so
    // forget and retention need no recount.
    name: '0008_counter_deltas',
    statements: [
      'ALTER TABLE namespace_counts DROP CONSTRAINT namespace_counts_pkey',
      'ALTER TABLE kind_counts DROP CONSTRAINT kind_counts_pkey',
      'ALTER TABLE type_counts DROP CONSTRAINT type_counts_pkey',
      'CREATE INDEX namespace_counts_namespace ON namespace_counts (namespace)',
      'CREATE INDEX kind_counts_namespace ON kind_counts (namespace, kind)',
      'CREATE INDEX type_counts_namespace ON type_counts (namespace, observation_type)',
      // The row trigger keeps only the notice (its payload is per event).
      `CREATE OR REPLACE FUNCTION events_after_insert() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        PERFORM pg_notify('kiro_learn_events:' || TG_TABLE_SCHEMA,
          json_build_object('event_id', NEW.event_id, 'namespace', NEW.namespace,
            'origin', current_setting('application_name'))::text);
        RETURN NULL;
      END $$`,
      `CREATE FUNCTION events_counted_insert() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts (namespace, events, memories, last_event_at)
          SELECT namespace, count(*), 0, max(received_at) FROM added GROUP BY namespace;
        INSERT INTO kind_counts (namespace, kind, n)
          SELECT namespace, kind, count(*) FROM added GROUP BY namespace, kind;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER events_counted_ai AFTER INSERT ON events
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION events_counted_insert()`,
      `CREATE FUNCTION events_counted_delete() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts (namespace, events, memories)
          SELECT namespace, -count(*), 0 FROM removed GROUP BY namespace;
        INSERT INTO kind_counts (namespace, kind, n)
          SELECT namespace, kind, -count(*) FROM removed GROUP BY namespace, kind;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER events_counted_ad AFTER DELETE ON events
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION events_counted_delete()`,
      'DROP TRIGGER memory_records_counts ON memory_records',
      'DROP FUNCTION memory_records_counted()',
      // A trigger with transition tables serves one operation: one function each. An
      // UPDATE nets its rows' old and new keys (most updates change neither: no row).
      `CREATE FUNCTION memory_records_counted_insert() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts (namespace, events, memories)
          SELECT namespace, 0, count(*) FROM added GROUP BY namespace;
        INSERT INTO type_counts (namespace, observation_type, n)
          SELECT namespace, observation_type, count(*) FROM added
          GROUP BY namespace, observation_type;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_counted_ai AFTER INSERT ON memory_records
        REFERENCING NEW TABLE AS added
        FOR EACH STATEMENT EXECUTE FUNCTION memory_records_counted_insert()`,
      `CREATE FUNCTION memory_records_counted_delete() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts (namespace, events, memories)
          SELECT namespace, 0, -count(*) FROM removed GROUP BY namespace;
        INSERT INTO type_counts (namespace, observation_type, n)
          SELECT namespace, observation_type, -count(*) FROM removed
          GROUP BY namespace, observation_type;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_counted_ad AFTER DELETE ON memory_records
        REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION memory_records_counted_delete()`,
      `CREATE FUNCTION memory_records_counted_update() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO namespace_counts (namespace, events, memories)
          SELECT namespace, 0, sum(d) FROM (
            SELECT namespace, -1 AS d FROM old_rows UNION ALL SELECT namespace, 1 FROM new_rows
          ) moves GROUP BY namespace HAVING sum(d) <> 0;
        INSERT INTO type_counts (namespace, observation_type, n)
          SELECT namespace, observation_type, sum(d) FROM (
            SELECT namespace, observation_type, -1 AS d FROM old_rows
            UNION ALL SELECT namespace, observation_type, 1 FROM new_rows
          ) moves GROUP BY namespace, observation_type HAVING sum(d) <> 0;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_counted_au AFTER UPDATE ON memory_records
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION memory_records_counted_update()`,
    ],
  },
  {
    // A forget (buffer entries, then events) racing a hook that stores an event with its
    // buffer entry in between failed on the entry's foreign key: an event's entries now
    // go with it. SQLite has one writer at a time and no such window.
    name: '0009_buffer_follows_event',
    statements: [
      `ALTER TABLE pending DROP CONSTRAINT pending_event_id_fkey,
        ADD CONSTRAINT pending_event_id_fkey FOREIGN KEY (event_id)
        REFERENCES events (event_id) ON DELETE CASCADE`,
      `ALTER TABLE parked DROP CONSTRAINT parked_event_id_fkey,
        ADD CONSTRAINT parked_event_id_fkey FOREIGN KEY (event_id)
        REFERENCES events (event_id) ON DELETE CASCADE`,
    ],
  },
  {
    // What a record answers and what replaced it, as SQLite's 0011: `questions` (JSON list)
    // with a search vector of its own (`questions_search`, GIN-indexed), so search weighs it
    // apart from the record's own text; `superseded_by` links a record to the newer one
    // that retired it (indexed for the reverse lookup). Deleting a record releases the
    // records it superseded, and a change of either is pushed to a team.
    name: '0010_questions_and_supersession',
    statements: [
      `ALTER TABLE memory_records
        ADD COLUMN questions TEXT NOT NULL DEFAULT '[]',
        ADD COLUMN questions_search TSVECTOR NOT NULL DEFAULT ''::tsvector,
        ADD COLUMN superseded_by TEXT COLLATE "C",
        ADD COLUMN superseded_at TEXT,
        ADD COLUMN superseded_reason TEXT`,
      'CREATE INDEX memory_records_superseded_by ON memory_records (superseded_by) WHERE superseded_by IS NOT NULL',
      'CREATE INDEX memory_records_questions_search ON memory_records USING GIN (questions_search)',
      `CREATE FUNCTION memory_records_release_links() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        UPDATE memory_records SET superseded_by = NULL, superseded_at = NULL,
          superseded_reason = NULL
        WHERE superseded_by IN (SELECT record_id FROM removed);
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_links_ad AFTER DELETE ON memory_records
        REFERENCING OLD TABLE AS removed
        FOR EACH STATEMENT EXECUTE FUNCTION memory_records_release_links()`,
      `CREATE OR REPLACE FUNCTION team_outbox_queue() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      DECLARE
        at TEXT := to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      BEGIN
        IF TG_OP = 'UPDATE' AND (
          OLD.record_id, OLD.namespace, OLD.strategy, OLD.title, OLD.summary, OLD.facts,
          OLD.concepts, OLD.files, OLD.observation_type, OLD.source_event_ids, OLD.created_at,
          OLD.updated_at, OLD.metadata, OLD.questions, OLD.superseded_by, OLD.superseded_at,
          OLD.superseded_reason
        ) IS NOT DISTINCT FROM (
          NEW.record_id, NEW.namespace, NEW.strategy, NEW.title, NEW.summary, NEW.facts,
          NEW.concepts, NEW.files, NEW.observation_type, NEW.source_event_ids, NEW.created_at,
          NEW.updated_at, NEW.metadata, NEW.questions, NEW.superseded_by, NEW.superseded_at,
          NEW.superseded_reason
        ) THEN
          RETURN NULL;
        END IF;
        IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND
            (OLD.record_id <> NEW.record_id OR OLD.namespace <> NEW.namespace)) THEN
          INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
          SELECT OLD.record_id, OLD.namespace, s.project_id, 'delete', at
          FROM team_shares s WHERE s.namespace = OLD.namespace;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO team_outbox (shared_record_id, namespace, project_id, op, queued_at)
          SELECT NEW.record_id, NEW.namespace, s.project_id, 'put', at
          FROM team_shares s WHERE s.namespace = NEW.namespace;
        END IF;
        RETURN NULL;
      END $$`,
    ],
  },
  {
    // One NOTIFY per committed batch, not per row. The row trigger announced every event
    // inside the inserting transaction, and a transaction that notifies holds a
    // database-wide lock through its commit (WAL flush included): every writer queued
    // behind every other. The event batcher now notifies after its batch commits, in a
    // statement of its own, and only while another backend watches (event-batcher.ts).
    name: '0011_notify_per_batch',
    statements: ['DROP TRIGGER events_ai ON events', 'DROP FUNCTION events_after_insert()'],
  },
  {
    // As SQLite's 0012: the embedded text includes the questions a record answers, so an
    // edit of them drops the vector, and vectors made without them are dropped once.
    name: '0012_vectors_follow_questions',
    statements: [
      `CREATE OR REPLACE FUNCTION memory_records_text_changed() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        IF OLD.title IS DISTINCT FROM NEW.title OR OLD.summary IS DISTINCT FROM NEW.summary
           OR OLD.facts IS DISTINCT FROM NEW.facts OR OLD.concepts IS DISTINCT FROM NEW.concepts
           OR OLD.questions IS DISTINCT FROM NEW.questions
           OR OLD.namespace IS DISTINCT FROM NEW.namespace THEN
          DELETE FROM record_vectors WHERE record_id = OLD.record_id;
        END IF;
        RETURN NULL;
      END $$`,
      `DELETE FROM record_vectors WHERE record_id IN
        (SELECT record_id FROM memory_records WHERE questions <> '[]')`,
    ],
  },
  {
    // A GIN index keeps new entries in a pending list (up to 4 MB by default) that every
    // search reads in full, for each term: with most records' questions empty, that list
    // grew to ~350 pages of empty items and a rare term's count took 6 ms instead of 0.2.
    // A small list is merged into the index by the insert that fills it.
    name: '0013_small_gin_pending_lists',
    statements: [
      'ALTER INDEX memory_records_search SET (gin_pending_list_limit = 64)',
      'ALTER INDEX memory_records_questions_search SET (gin_pending_list_limit = 64)',
      "SELECT gin_clean_pending_list('memory_records_search'::regclass)",
      "SELECT gin_clean_pending_list('memory_records_questions_search'::regclass)",
    ],
  },
  {
    // Impact-ordered postings (postgres/impacts.ts): per (lexeme, project) the records in
    // the order of an upper bound of their ts_rank part at the reference weights, with the
    // per-label counts and lengths the exact score needs, so a top-k reads the head of each
    // list and stops early, and a lexeme's document frequency is a count over one index
    // range instead of a GIN count that reads a heap row per match. Kept by a row trigger
    // in the writing transaction: a deleted record's rows go with it (found again by
    // recomputing them from the old vectors: the index key holds the impact). Records
    // stored before it are indexed in the background (0017, impact-backfill.ts).
    //
    // Edited before any release: its first text also indexed every existing record here, in
    // the migration's transaction (165 s at 100,000 records, every collector waiting). A
    // database that applied that text has every posting, and 0017 queues nothing for it.
    name: '0014_impact_postings',
    earlierChecksums: ['56c0d679c89fca0508ae0c2faed4db8f499fe41178e31a20eb8f759ef9f3306e'],
    statements: [
      `CREATE TABLE impact_namespaces (
        id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        namespace TEXT COLLATE "C" NOT NULL UNIQUE
      )`,
      `CREATE TABLE impact_postings (
        lexeme TEXT COLLATE "C" NOT NULL,
        ns INTEGER NOT NULL,
        impact REAL NOT NULL,
        record_id TEXT COLLATE "C" NOT NULL,
        tf INTEGER NOT NULL,
        q INTEGER NOT NULL,
        len INTEGER NOT NULL,
        qlen INTEGER NOT NULL
      )`,
      // sum(1/j²), j = 1..n: the position discount of ts_rank.
      `CREATE FUNCTION impact_h2(n INTEGER) RETURNS FLOAT8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $$ SELECT coalesce(sum(1::float8 / (j::float8 * j::float8)), 0) FROM generate_series(1, n) j $$`,
      // G(reference weights) of impacts.ts: title 1, concepts/files 0.625, facts and summary
      // 0.375, questions 0.25 (retrieval's weights, scaled as rankWeights scales them).
      `CREATE FUNCTION impact_of(a INTEGER, b INTEGER, c INTEGER, d INTEGER, q INTEGER, len INTEGER, qlen INTEGER)
        RETURNS REAL LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT ((CASE WHEN a + b + c + d = 0 THEN 0::float8 ELSE
            (impact_h2(a) + 0.625::float8 * (impact_h2(a + b) - impact_h2(a))
             + 0.375::float8 * (impact_h2(a + b + c + d) - impact_h2(a + b))
             + greatest(
                 CASE WHEN b > 0 THEN 0.625::float8 * (1 - 1 / ((a + 1)::float8 ^ 2)) ELSE 0 END,
                 CASE WHEN c > 0 THEN 0.375::float8 * (1 - 1 / ((a + b + 1)::float8 ^ 2)) ELSE 0 END,
                 CASE WHEN d > 0 THEN 0.375::float8 * (1 - 1 / ((a + b + c + 1)::float8 ^ 2)) ELSE 0 END))
            / 1.64493406685::float8 / (ln((len + 1)::float8) / ln(2::float8)) END)
          + CASE WHEN q = 0 THEN 0::float8 ELSE
            0.25::float8 * impact_h2(q) / 1.64493406685::float8 / (ln((qlen + 1)::float8) / ln(2::float8)) END)::real
      $$`,
      // A record's postings from its two vectors (the namespace lexeme has no positions and
      // is left out; it counts in the length, as ts_rank counts it).
      `CREATE FUNCTION impact_rows(search TSVECTOR, asked TSVECTOR)
        RETURNS TABLE (lexeme TEXT, impact REAL, tf INTEGER, q INTEGER, len INTEGER, qlen INTEGER)
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        WITH counted AS (
          SELECT u.lexeme,
            count(*) FILTER (WHERE w = 'A')::int AS a, count(*) FILTER (WHERE w = 'B')::int AS b,
            count(*) FILTER (WHERE w = 'C')::int AS c, count(*) FILTER (WHERE w = 'D')::int AS d
          FROM unnest(search) u CROSS JOIN unnest(u.weights) w
          WHERE u.positions IS NOT NULL GROUP BY u.lexeme
        ), asked_counts AS (
          SELECT u.lexeme, cardinality(u.positions) AS q FROM unnest(asked) u WHERE u.positions IS NOT NULL
        ), lengths AS (
          SELECT (SELECT coalesce(sum(coalesce(cardinality(u.positions), 1)), 0) FROM unnest(search) u)::int AS len,
            (SELECT coalesce(sum(coalesce(cardinality(u.positions), 1)), 0) FROM unnest(asked) u)::int AS qlen
        )
        SELECT coalesce(c.lexeme, k.lexeme),
          impact_of(coalesce(c.a, 0), coalesce(c.b, 0), coalesce(c.c, 0), coalesce(c.d, 0), coalesce(k.q, 0), l.len, l.qlen),
          least(coalesce(c.a, 0), 255) | (least(coalesce(c.b, 0), 255) << 8)
            | (least(coalesce(c.c, 0), 255) << 16) | (least(coalesce(c.d, 0), 127) << 24),
          coalesce(k.q, 0), l.len, l.qlen
        FROM counted c FULL JOIN asked_counts k ON k.lexeme = c.lexeme CROSS JOIN lengths l
      $$`,
      `CREATE FUNCTION impact_namespace(name TEXT) RETURNS INTEGER LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      DECLARE found INTEGER;
      BEGIN
        SELECT id INTO found FROM impact_namespaces WHERE namespace = name;
        IF found IS NULL THEN
          INSERT INTO impact_namespaces (namespace) VALUES (name) ON CONFLICT DO NOTHING;
          SELECT id INTO found FROM impact_namespaces WHERE namespace = name;
        END IF;
        RETURN found;
      END $$`,
      `CREATE FUNCTION memory_records_impacts() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.record_id = NEW.record_id AND OLD.namespace = NEW.namespace
           AND OLD.search = NEW.search AND OLD.questions_search = NEW.questions_search THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          DELETE FROM impact_postings p
          USING impact_rows(OLD.search, OLD.questions_search) r
          WHERE p.lexeme = r.lexeme AND p.ns = (SELECT id FROM impact_namespaces WHERE namespace = OLD.namespace)
            AND p.impact = r.impact AND p.record_id = OLD.record_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO impact_postings (lexeme, ns, impact, record_id, tf, q, len, qlen)
          SELECT r.lexeme, impact_namespace(NEW.namespace), r.impact, NEW.record_id, r.tf, r.q, r.len, r.qlen
          FROM impact_rows(NEW.search, NEW.questions_search) r;
        END IF;
        RETURN NULL;
      END $$`,
      // Read backwards for a list's head: (lexeme, ns) then impact and record_id descending.
      `CREATE INDEX impact_postings_list ON impact_postings (lexeme, ns, impact, record_id)
        INCLUDE (tf, q, len, qlen)`,
      `CREATE TRIGGER memory_records_impacts_aiud AFTER INSERT OR UPDATE OR DELETE ON memory_records
        FOR EACH ROW EXECUTE FUNCTION memory_records_impacts()`,
    ],
  },
  {
    // A record's postings are found again by their recomputed impact: exact on the server
    // that wrote them, but a database restored elsewhere may compute ln() a last bit
    // apart, and a row missed would keep a forgotten record's words. The delete takes a
    // narrow range of impacts (still one index range per lexeme) and, when it removed
    // fewer rows than the record has lexemes, deletes by lexeme and record the long way.
    name: '0015_impact_delete_tolerant',
    statements: [
      `CREATE OR REPLACE FUNCTION memory_records_impacts() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      DECLARE
        nid INTEGER;
        gone INTEGER;
        expected INTEGER;
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.record_id = NEW.record_id AND OLD.namespace = NEW.namespace
           AND OLD.search = NEW.search AND OLD.questions_search = NEW.questions_search THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          SELECT id INTO nid FROM impact_namespaces WHERE namespace = OLD.namespace;
          WITH old AS (SELECT * FROM impact_rows(OLD.search, OLD.questions_search)),
          removed AS (
            DELETE FROM impact_postings p USING old r
            WHERE p.lexeme = r.lexeme AND p.ns = nid
              AND p.impact BETWEEN r.impact * 0.99999::real AND r.impact * 1.00001::real
              AND p.record_id = OLD.record_id
            RETURNING 1)
          SELECT (SELECT count(*) FROM removed), (SELECT count(*) FROM old) INTO gone, expected;
          IF gone < expected THEN
            DELETE FROM impact_postings p WHERE p.ns = nid AND p.record_id = OLD.record_id
              AND p.lexeme IN (SELECT r.lexeme FROM impact_rows(OLD.search, OLD.questions_search) r);
          END IF;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          INSERT INTO impact_postings (lexeme, ns, impact, record_id, tf, q, len, qlen)
          SELECT r.lexeme, impact_namespace(NEW.namespace), r.impact, NEW.record_id, r.tf, r.q, r.len, r.qlen
          FROM impact_rows(NEW.search, NEW.questions_search) r;
        END IF;
        RETURN NULL;
      END $$`,
    ],
  },
  {
    // A record write cost ~2 ms more with its postings (1.0 → 3.0–3.5 ms a putRecord): the
    // position discount sum(1/j²) was a generate_series per call, seven calls a lexeme, and
    // the namespace id was looked up once per row. The sums up to 64 are now constants, the
    // very doubles the series adds up (so those impacts stay what they were); past 64 (a
    // word 65 times in one record) the asymptotic series, within 1e-10 (the trigger's
    // delete allows 1e-5). Without a subquery the function is inlined. The namespace id is
    // looked up once a record.
    name: '0016_impact_writes_cheaper',
    statements: [
      `CREATE OR REPLACE FUNCTION impact_h2(n INTEGER) RETURNS FLOAT8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $$ SELECT CASE WHEN n BETWEEN 0 AND 64
          THEN ('{0.0,1.0,1.25,1.3611111111111112,1.4236111111111112,1.4636111111111112,1.4913888888888889,1.511797052154195,1.527422052154195,1.5397677311665408,1.5497677311665408,1.558032193976458,1.5649766384209025,1.5708937981842162,1.5759958390005426,1.580440283444987,1.584346533444987,1.587806741057444,1.5908931608105303,1.5936632439130234,1.5961632439130233,1.5984308176091684,1.6004969333116477,1.6023872924798896,1.6041234035910008,1.6057234035910009,1.6072026935318293,1.6085744356443121,1.6098499458483937,1.6110390064904865,1.6121501176015975,1.6131907003279242,1.6141672628279242,1.6150855364734706,1.6159505883765848,1.616766914907197,1.6175385198454686,1.6182689800353882,1.6189615008110114,1.619618963006935,1.6202439630069352,1.6208388470045556,1.621405740428592,1.6219465733112313,1.6224631022368512,1.622956929397345,1.6234295191894055,1.623882212715888,1.6243162404936657,1.6247327336215291,1.625132733621529,1.6255172011340242,1.6258870236192313,1.626243022195237,1.626585957723358,1.6269165362357545,1.6272354137867748,1.627543200798163,1.627840465958686,1.6281277397305907,1.6284055175083685,1.6286742624694004,1.628934408150982,1.629186360783887,1.629430501408887}'::float8[])[n + 1]
          ELSE pi() ^ 2 / 6 - 1 / n::float8 + 1 / (2 * n::float8 ^ 2) - 1 / (6 * n::float8 ^ 3) END $$`,
      `CREATE OR REPLACE FUNCTION memory_records_impacts() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      DECLARE
        nid INTEGER;
        gone INTEGER;
        expected INTEGER;
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.record_id = NEW.record_id AND OLD.namespace = NEW.namespace
           AND OLD.search = NEW.search AND OLD.questions_search = NEW.questions_search THEN
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          SELECT id INTO nid FROM impact_namespaces WHERE namespace = OLD.namespace;
          WITH old AS (SELECT * FROM impact_rows(OLD.search, OLD.questions_search)),
          removed AS (
            DELETE FROM impact_postings p USING old r
            WHERE p.lexeme = r.lexeme AND p.ns = nid
              AND p.impact BETWEEN r.impact * 0.99999::real AND r.impact * 1.00001::real
              AND p.record_id = OLD.record_id
            RETURNING 1)
          SELECT (SELECT count(*) FROM removed), (SELECT count(*) FROM old) INTO gone, expected;
          IF gone < expected THEN
            DELETE FROM impact_postings p WHERE p.ns = nid AND p.record_id = OLD.record_id
              AND p.lexeme IN (SELECT r.lexeme FROM impact_rows(OLD.search, OLD.questions_search) r);
          END IF;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          nid := impact_namespace(NEW.namespace);
          INSERT INTO impact_postings (lexeme, ns, impact, record_id, tf, q, len, qlen)
          SELECT r.lexeme, nid, r.impact, NEW.record_id, r.tf, r.q, r.len, r.qlen
          FROM impact_rows(NEW.search, NEW.questions_search) r;
        END IF;
        RETURN NULL;
      END $$`,
    ],
  },
  {
    // The records 0014 left to the background (impact-backfill.ts): every record stored
    // before it, when the database applied 0014's present text; none when it applied the
    // first one, which indexed them all. A record written since 0014 may be queued too (a
    // write between the two migrations): the backfill skips a record that has its postings.
    // No foreign key: checking one per queued row took 5 s at 100,000 records (the key is
    // added after the rows, by one sort); a deleted record's queue row goes by trigger (a
    // forgotten record's id too).
    name: '0017_impact_queue',
    statements: [
      'CREATE TABLE impact_queue (record_id TEXT COLLATE "C" NOT NULL)',
      `INSERT INTO impact_queue (record_id)
        SELECT record_id FROM memory_records
        WHERE EXISTS (SELECT 1 FROM schema_migrations WHERE name = '0014_impact_postings'
          AND checksum <> '56c0d679c89fca0508ae0c2faed4db8f499fe41178e31a20eb8f759ef9f3306e')`,
      'ALTER TABLE impact_queue ADD PRIMARY KEY (record_id)',
      `CREATE FUNCTION impact_queue_deleted() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        DELETE FROM impact_queue q USING gone g WHERE q.record_id = g.record_id;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER memory_records_impact_queue_ad AFTER DELETE ON memory_records
        REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION impact_queue_deleted()`,
    ],
  },
  {
    // How many records hold each lexeme, exact, for the document frequencies search used
    // to count over the postings (11.8 ms of a 14.7 ms first statement at 1,000,000
    // records: ~5,000 postings each for five words). Whatever writes or deletes postings
    // (the record trigger, the backfill, forget) appends one row per lexeme and statement
    // to impact_count_deltas: insert-only, so writers never wait on each other or
    // deadlock over a common word's count. A folder (impact-counts.ts, one at a time)
    // moves the deltas into impact_counts in one transaction, so any snapshot sees each
    // delta exactly once: df = count + the lexeme's unfolded deltas. A record still in
    // 0017's queue is counted when the backfill writes its postings, not before. The
    // triggers come first: their lock keeps postings from changing while the counts are
    // built from them.
    name: '0018_impact_counts',
    statements: [
      'CREATE TABLE impact_counts (lexeme TEXT COLLATE "C" PRIMARY KEY, n BIGINT NOT NULL)',
      'CREATE TABLE impact_count_deltas (lexeme TEXT COLLATE "C" NOT NULL, n INTEGER NOT NULL)',
      'CREATE INDEX impact_count_deltas_lexeme ON impact_count_deltas (lexeme)',
      `CREATE FUNCTION impact_postings_added() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO impact_count_deltas (lexeme, n) SELECT lexeme, count(*) FROM added GROUP BY lexeme;
        RETURN NULL;
      END $$`,
      `CREATE FUNCTION impact_postings_removed() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $$
      BEGIN
        INSERT INTO impact_count_deltas (lexeme, n) SELECT lexeme, -count(*) FROM removed GROUP BY lexeme;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER impact_postings_counts_ai AFTER INSERT ON impact_postings
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION impact_postings_added()`,
      `CREATE TRIGGER impact_postings_counts_ad AFTER DELETE ON impact_postings
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION impact_postings_removed()`,
      `INSERT INTO impact_counts (lexeme, n)
        SELECT lexeme, count(*) FROM impact_postings GROUP BY lexeme`,
    ],
  },
];

/** A migration's stored checksum (migrationChecksum). */
export const pgChecksum = migrationChecksum;

/**
 * The one connection migrations run on (a `pg` client): typed by what is used, so this
 * package's public types do not need `@types/pg` in a consumer's project.
 */
export interface MigrationClient {
  query<R = unknown>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Creates the schema when missing and applies pending migrations, each in its own
 * transaction together with its bookkeeping row, while holding an advisory lock on the
 * schema: collectors starting at once migrate one after the other, and the later ones
 * find nothing left to do. Refuses (StorageError `migration_drift`) when the database has
 * a migration this code does not know (written by a newer kiro-learn) or one whose text
 * changed.
 */
export async function migratePostgres(
  client: MigrationClient,
  schema: string,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<string[]> {
  const lock = `kiro-learn migrations ${schema}`;
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [lock]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    return await runMigrations(migrations, {
      async applied() {
        await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name TEXT COLLATE "C" PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL
    )`);
        return (
          await client.query<{ name: string; checksum: string }>(
            'SELECT name, checksum FROM schema_migrations ORDER BY name',
          )
        ).rows;
      },
      async apply(migration, sum) {
        try {
          await client.query('BEGIN');
          for (const statement of migration.statements) await client.query(statement);
          await client.query(
            'INSERT INTO schema_migrations (name, checksum, applied_at) VALUES ($1, $2, $3)',
            [migration.name, sum, new Date().toISOString()],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      },
    });
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [lock]).catch(() => undefined);
  }
}

/** A double-quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

import { describe } from 'vitest';
import { bufferConformance } from './buffer.js';
import { claimsConformance } from './claims.js';
import { dataConformance } from './data.js';
import { eventsConformance } from './events.js';
import { lifecycleConformance } from './lifecycle.js';
import { logsConformance } from './logs.js';
import { membersConformance } from './members.js';
import { recordsConformance } from './records.js';
import { searchConformance } from './search.js';
import { sessionReadsConformance } from './session-reads.js';
import { sharingConformance } from './sharing.js';
import { supersessionConformance } from './supersession.js';
import { teamConformance } from './team.js';
import type { BackendFactory } from './types.js';
import { vectorsConformance } from './vectors.js';

export type { BackendFactory } from './types.js';

/**
 * The StorageBackend conformance suite: every behaviour other packages rely on, written
 * once and run against each backend (test/sqlite.conformance.test.ts,
 * test/postgres.conformance.test.ts), so the backends cannot drift apart. One file per
 * aggregate interface (src/stores/): events (EventStore), records and supersession
 * (RecordStore), search (SearchStore), session reads (SessionReadStore), vectors (VectorStore), buffer (BufferStore), claims
 * (ClaimStore), members (MemberStore), team (TeamStore), sharing (SharingStore), logs
 * (LogStore), data (DataStore); totals (StatsStore) are checked beside the writes that
 * change them, and lifecycle covers close and reopen.
 */
export function describeStorageConformance(name: string, factory: BackendFactory): void {
  describe(`StorageBackend conformance: ${name}`, () => {
    eventsConformance(factory);
    recordsConformance(factory);
    searchConformance(factory);
    sessionReadsConformance(factory);
    supersessionConformance(factory);
    bufferConformance(factory);
    claimsConformance(factory);
    logsConformance(factory);
    membersConformance(factory);
    teamConformance(factory);
    lifecycleConformance(factory);
    vectorsConformance(factory);
    dataConformance(factory);
    sharingConformance(factory);
  });
}

import type { MemoryRecord } from '@kiro-learn/schema';
import type { StorageBackend } from '../../src/index.js';

/** How the conformance suite gets backends of one kind (closed by the factory's cleanup). */
export interface BackendFactory {
  /** A fresh, empty store. */
  open(): Promise<StorageBackend>;
  /** The same store as `closed` (already closed), opened again. */
  reopen(closed: StorageBackend): Promise<StorageBackend>;
}

/** A fresh store of `factory` holding `records`, put in this order. */
export async function holding(
  factory: Pick<BackendFactory, 'open'>,
  ...records: MemoryRecord[]
): Promise<StorageBackend> {
  const storage = await factory.open();
  for (const r of records) await storage.putRecord(r);
  return storage;
}

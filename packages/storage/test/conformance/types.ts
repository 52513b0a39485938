import type { StorageBackend } from '../../src/index.js';

/** How the conformance suite gets backends of one kind (closed by the factory's cleanup). */
export interface BackendFactory {
  /** A fresh, empty store. */
  open(): Promise<StorageBackend>;
  /** The same store as `closed` (already closed), opened again. */
  reopen(closed: StorageBackend): Promise<StorageBackend>;
}

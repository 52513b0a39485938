/** Totals and size, for `/v1/stats`, `/v1/status` and the viewer. */
export interface StatsStore {
  /** Totals per kind, type and project; one project's with `namespace`. */
  stats(namespace?: string): Promise<StorageStats>;
  /** Database size on disk in bytes (0 where not applicable). */
  sizeBytes(): Promise<number>;
}

export interface StorageStats {
  /** Stored events, in all and per kind. */
  events: { total: number; byKind: Record<string, number> };
  /** Memory records, in all and per observation type. */
  memories: { total: number; byType: Record<string, number> };
  /** Per namespace: its events, records, and when its last event arrived. */
  projects: Array<{ namespace: string; events: number; memories: number; lastEventAt?: string }>;
}

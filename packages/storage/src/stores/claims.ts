/**
 * Several collectors on one database: which one extracts a namespace's pending events.
 * A claim runs out by itself, so the claim of a collector that died mid-extraction does
 * not hold the namespace for ever.
 */
export interface ClaimStore {
  /**
   * Claims the extraction of a namespace's pending events for `owner` until `ttlMs` from
   * now, or extends the owner's own claim. False while another owner's claim runs: only
   * the holder extracts, so a batch is never extracted by two collectors at once.
   */
  claimExtraction(namespace: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Ends the owner's claim on a namespace (nothing when it holds none). */
  releaseExtraction(namespace: string, owner: string): Promise<void>;
}

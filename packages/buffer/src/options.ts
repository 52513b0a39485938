import { BufferError } from './errors.js';

/** When a project's pending events are extracted, and how failures are handled. */
export interface BufferOptions {
  /** Extract when a project's pending events reach this many bytes (256 KiB). */
  thresholdBytes: number;
  /** Extract when a project has had no new event for this long, in ms (30 s). */
  idleMs: number;
  /** Past this many pending bytes a project's new events are stored but not buffered (4 MiB). */
  ceilingBytes: number;
  /** Most bytes of events handed to one extraction; the rest follow in the next batch (1 MiB). */
  maxBatchBytes: number;
  /** Most events handed to one extraction (1000). */
  maxBatchEvents: number;
  /** Consecutive failed extractions that open a project's circuit breaker (3). */
  breakerFailures: number;
  /** How long an open breaker waits before a trial extraction, in ms (60 s); doubles per failed trial. */
  breakerBackoffMs: number;
  /** Longest wait of an open breaker, in ms (30 min). */
  breakerMaxBackoffMs: number;
  /** Wait before retrying a failed extraction while the breaker is still closed, in ms (idleMs). */
  retryMs: number;
  /**
   * How long a claim on a project's extraction lasts unless renewed, in ms (60 s). Several
   * collectors sharing a database extract a project only while holding its claim, renewed
   * every third of this while a run lasts; a collector that dies mid-run blocks the project
   * at most this long.
   */
  claimTtlMs: number;
}

export const BUFFER_DEFAULTS: Readonly<Omit<BufferOptions, 'retryMs'>> = Object.freeze({
  thresholdBytes: 256 * 1024,
  idleMs: 30_000,
  ceilingBytes: 4 * 1024 * 1024,
  maxBatchBytes: 1024 * 1024,
  maxBatchEvents: 1000,
  breakerFailures: 3,
  breakerBackoffMs: 60_000,
  breakerMaxBackoffMs: 30 * 60_000,
  claimTtlMs: 60_000,
});

/** Fills defaults, checks every value, freezes. */
export function resolveOptions(given: Partial<BufferOptions> = {}): Readonly<BufferOptions> {
  const defined = Object.fromEntries(
    Object.entries(given).filter(([, value]) => value !== undefined),
  );
  const options: BufferOptions = {
    ...BUFFER_DEFAULTS,
    retryMs: given.idleMs ?? BUFFER_DEFAULTS.idleMs,
    ...defined,
  };
  for (const [name, value] of Object.entries(options)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new BufferError(
        'invalid_options',
        `${name} must be a number of at least 0, not ${String(value)}`,
      );
    }
  }
  for (const name of [
    'maxBatchEvents',
    'breakerFailures',
    'maxBatchBytes',
    'claimTtlMs',
  ] as const) {
    if (options[name] < 1) throw new BufferError('invalid_options', `${name} must be at least 1`);
  }
  if (options.thresholdBytes > options.ceilingBytes) {
    throw new BufferError('invalid_options', 'thresholdBytes must not exceed ceilingBytes');
  }
  return Object.freeze(options);
}

import type { CompactionOptions } from '@kiro-learn/buffer';
import { DEFAULTS } from '@kiro-learn/schema';
import { z } from 'zod';

/** Log levels, least to most severe. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The collector's validated, normalized configuration (frozen). */
export interface CollectorSettings {
  /** Data directory: database, logs, PID file, settings.json (`KIRO_LEARN_HOME`). */
  home: string;
  /** Address to bind; loopback unless a token is set (`KIRO_LEARN_HOST`). */
  host: string;
  /** TCP port (`KIRO_LEARN_PORT`). 0 picks a free one, for tests of the daemon itself: hooks and the CLI cannot find such a collector. */
  port: number;
  /** Bearer token every request must carry, when set (`KIRO_LEARN_TOKEN`). */
  token?: string;
  /** Least severe level written to the log (`KIRO_LEARN_LOG_LEVEL`). */
  logLevel: LogLevel;
  /** Log file rotation. */
  log: {
    /** Rotate the log file when it grows past this many bytes. */
    maxBytes: number;
    /** Rotated files kept beside the current one. */
    files: number;
  };
  /** Inline retrieval on prompt events. */
  retrieval: {
    /** Latency budget; past it the prompt gets no context (`KIRO_LEARN_RETRIEVAL_BUDGET_MS`). */
    budgetMs: number;
    /** Most records put into the context. */
    records: number;
  };
  /** Semantic search: a local embedding model blended with the lexical ranker. */
  semantic: {
    /** Load the model and embed records; off: retrieval is lexical only. */
    enabled: boolean;
    /**
     * A local model directory (`tokenizer.json` + `model.onnx`, or BERT safetensors +
     * `config.json`) instead of the built-in all-MiniLM-L6-v2 (`KIRO_LEARN_SEMANTIC_MODEL_DIR`).
     */
    modelDir?: string;
    /** `auto`: onnxruntime-node when it loads, else the WASM engine; or one of them only. */
    runtime: 'auto' | 'onnxruntime-node' | 'wasm';
    /**
     * `int8` (default): the built-in model's dense layers in int8 on onnxruntime-node, about
     * faster, vectors within cosine 0.99 of `fp32`; `fp32`: full precision.
     */
    precision: 'int8' | 'fp32';
  };
  /** Privacy scrubbing. */
  privacy: {
    /** Extra secret patterns (regular expression sources, or `{pattern, kind, flags}`). */
    extraPatterns: Array<string | { pattern: string; kind?: string; flags?: string }>;
  };
  /** Where hooks may capture at all (also: `kiro-learn pause`, a `.kiro-learn-ignore` file). */
  capture: {
    /** Directory globs never captured, with their subdirectories (`~/tmp/**`, `~/clients/*`). */
    exclude: string[];
    /** Capture sessions started in the home directory itself (off: only projects are). */
    homeDirectory: boolean;
  };
  /** How long raw events are kept; applied daily and by `kiro-learn gc`. Memory records stay. */
  retention: {
    /** Raw events. */
    events: {
      /** Events older than this many days are deleted (0: kept forever). */
      maxAgeDays: number;
    };
    /** Past this database size in MB the oldest events are deleted (0: no cap). */
    maxDatabaseMB: number;
    /** Limits for one project (key: its directory, `~/` allowed, or its namespace) over the global ones; its `maxDatabaseMB` caps that project's stored event text. */
    projects: Record<string, RetentionLimits>;
  };
  /** Automatic daily backups into the data dir's `backups/` folder. */
  backup: {
    /** Daily backups kept, the oldest deleted first (0: no automatic backups). */
    keep: number;
  };
  /** Extraction of memory records from pending events. */
  extraction: {
    /**
     * `auto`: the ACP agent when its command is installed, else the built-in extractor;
     * `acp` or `builtin` to choose (`KIRO_LEARN_EXTRACTOR`).
     */
    mode: 'auto' | 'acp' | 'builtin';
    /** Compressor agent command line (`KIRO_LEARN_COMPRESSOR_COMMAND`). */
    command: string;
    /** Sessions extracted at the same time. */
    concurrency: number;
    /** Per-extraction time limit. */
    timeoutMs: number;
    /** Attempts on garbage output before giving up on a batch. */
    attempts: number;
    /**
     * Several collectors on one database: how long a collector's claim on a project's
     * extraction lasts unless renewed; a collector that dies mid-extraction holds the
     * project this long, then another takes the batch over.
     */
    claimTtlMs: number;
  };
  /** Where events and memory records are stored. */
  storage: {
    /**
     * `postgres://user:password@host:port/database` for a PostgreSQL server that several
     * collectors can share (`KIRO_LEARN_STORAGE_URL`); absent: the SQLite file in the data dir.
     */
    url?: string;
    /** PostgreSQL only: the schema holding kiro-learn's tables, created when missing. */
    schema: string;
    /**
     * PostgreSQL only: connections each collector keeps open at most, plus as many again
     * for searches (a pool of their own) and one for storing events.
     */
    poolSize: number;
    /** PostgreSQL only: how long a request waits for a free connection before answering 503, in ms. */
    acquireTimeoutMs: number;
    /** PostgreSQL only: a statement running longer is cancelled and its request answers 503, in ms. */
    statementTimeoutMs: number;
  };
  /** Team memory: this machine is a member of a team memory server (`kiro-learn team join`). */
  team: {
    /** The team memory server, `https://…` (`kiro-learn team join` sets it); absent: no team. */
    url?: string;
    /** This member's token (`klm_…`); `kiro-learn team join` keeps it in the data dir's `team-token` file (mode 0600) instead. */
    token?: string;
    /** Of the retrieval budget, how long a prompt waits for the team server's search, in ms; later answers are left out. */
    searchBudgetMs: number;
  };
  /**
   * Rate limits on requests that carry a bearer token (a team server's members, or the
   * server's own token): answered 429 with `Retry-After` past them, and counted in `/metrics`.
   */
  rateLimit: {
    /** Requests with a wrong token one address may send per minute before it must wait (the token is then not checked); 0: no limit. */
    failedAuthPerMinute: number;
    /** Requests per second one member token may make, sustained; 0: no limit. */
    memberPerSecond: number;
    /** Requests one member token may make at once above that rate. */
    memberBurst: number;
  };
  /** Pending-event buffer triggers. */
  buffer: {
    /** Extract when a project's pending events reach this many bytes. */
    maxPendingBytes: number;
    /** Extract after this long without new events. */
    idleMs: number;
    /** Consecutive failures that open the circuit breaker. */
    breakerFailures: number;
    /** Past this many pending bytes a project's new events are stored but not buffered. */
    ceilingBytes: number;
    /**
     * Compaction of a backlog too large for one extraction prompt (see
     * @kiro-learn/buffer's CompactionOptions; checked by its rules at start-up).
     */
    compaction: Readonly<Partial<CompactionOptions>>;
  };
}

/** Retention limits of one project (see `retention` in CollectorSettings). */
export interface RetentionLimits {
  events?: { maxAgeDays?: number };
  maxDatabaseMB?: number;
}

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const maxAgeDays = int(0, 36_500);
const maxDatabaseMB = int(0, 16 * 1024 * 1024);

/** The shape of settings.json (every field optional; defaults fill the rest). */
export const SettingsFileSchema = z.object({
  host: z
    .string()
    .regex(/^[A-Za-z0-9.:-]{1,253}$/, 'must be a host name or IP address')
    .optional(),
  port: int(0, 65535).optional(),
  token: z.string().min(1, 'must not be empty').max(4096).optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  log: z
    .object({ maxBytes: int(64 * 1024, 2 ** 40).optional(), files: int(0, 100).optional() })
    .optional(),
  retrieval: z
    .object({ budgetMs: int(1, 60_000).optional(), records: int(1, 100).optional() })
    .optional(),
  semantic: z
    .object({
      enabled: z.boolean().optional(),
      modelDir: z.string().min(1).max(4096).optional(),
      runtime: z.enum(['auto', 'onnxruntime-node', 'wasm']).optional(),
      precision: z.enum(['int8', 'fp32']).optional(),
    })
    .optional(),
  privacy: z
    .object({
      extraPatterns: z
        .array(
          z.union([
            z.string().min(1),
            z.object({
              pattern: z.string().min(1),
              kind: z
                .string()
                .regex(/^[a-z0-9_]{1,40}$/, 'must be 1-40 of a-z, 0-9, _')
                .optional(),
              flags: z
                .string()
                .regex(/^[imsu]*$/, 'may only use the flags i, m, s, u')
                .optional(),
            }),
          ]),
        )
        .max(200)
        .optional(),
    })
    .optional(),
  capture: z
    .object({
      exclude: z.array(z.string().min(1).max(4096)).max(500).optional(),
      homeDirectory: z.boolean().optional(),
    })
    .optional(),
  retention: z
    .object({
      events: z.object({ maxAgeDays: maxAgeDays.optional() }).optional(),
      maxDatabaseMB: maxDatabaseMB.optional(),
      projects: z
        .record(
          z.string().min(1).max(4096),
          z.object({
            events: z.object({ maxAgeDays: maxAgeDays.optional() }).optional(),
            maxDatabaseMB: maxDatabaseMB.optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  backup: z.object({ keep: int(0, 1000).optional() }).optional(),
  extraction: z
    .object({
      mode: z.enum(['auto', 'acp', 'builtin']).optional(),
      command: z.string().trim().min(1).optional(),
      concurrency: int(1, 64).optional(),
      timeoutMs: int(1000, 3_600_000).optional(),
      attempts: int(1, 10).optional(),
      claimTtlMs: int(1000, 3_600_000).optional(),
    })
    .optional(),
  storage: z
    .object({
      url: z
        .string()
        .max(4096)
        .regex(
          /^postgres(ql)?:\/\/\S+$/,
          'must be a postgres:// URL (or absent for the SQLite file)',
        )
        .optional(),
      poolSize: int(1, 1000).optional(),
      acquireTimeoutMs: int(10, 60_000).optional(),
      schema: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be lower-case letters, digits and _')
        .optional(),
      statementTimeoutMs: int(100, 3_600_000).optional(),
    })
    .optional(),
  team: z
    .object({
      url: z
        .string()
        .max(2048)
        .regex(/^https?:\/\/[^\s/]+\S*$/, 'must be an http:// or https:// URL')
        .optional(),
      token: z.string().min(1, 'must not be empty').max(4096).optional(),
      searchBudgetMs: int(1, 60_000).optional(),
    })
    .optional(),
  rateLimit: z
    .object({
      failedAuthPerMinute: int(0, 1_000_000).optional(),
      memberPerSecond: int(0, 1_000_000).optional(),
      memberBurst: int(1, 10_000_000).optional(),
    })
    .optional(),
  buffer: z
    .object({
      maxPendingBytes: int(1024, 1024 ** 3).optional(),
      idleMs: int(100, 86_400_000).optional(),
      breakerFailures: int(1, 100).optional(),
      ceilingBytes: int(1024, 1024 ** 3).optional(),
      // Checked field by field, with cross-field rules, by @kiro-learn/buffer (rules step).
      compaction: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
export type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** Fills defaults and freezes: the normalize step between schema and rules. */
export function normalizeSettings(file: SettingsFile, home: string): CollectorSettings {
  const budgetMs = file.retrieval?.budgetMs ?? DEFAULTS.retrievalBudgetMs;
  const settings: CollectorSettings = {
    home,
    host: (file.host ?? DEFAULTS.host).toLowerCase(),
    port: file.port ?? DEFAULTS.port,
    ...(file.token ? { token: file.token } : {}),
    logLevel: file.logLevel ?? 'info',
    log: { maxBytes: file.log?.maxBytes ?? 10 * 1024 * 1024, files: file.log?.files ?? 3 },
    retrieval: {
      budgetMs,
      records: file.retrieval?.records ?? DEFAULTS.retrievalRecords,
    },
    semantic: {
      enabled: file.semantic?.enabled ?? true,
      ...(file.semantic?.modelDir ? { modelDir: file.semantic.modelDir } : {}),
      runtime: file.semantic?.runtime ?? 'auto',
      precision: file.semantic?.precision ?? 'int8',
    },
    privacy: { extraPatterns: file.privacy?.extraPatterns ?? [] },
    capture: {
      exclude: file.capture?.exclude ?? [],
      homeDirectory: file.capture?.homeDirectory ?? false,
    },
    retention: {
      events: { maxAgeDays: file.retention?.events?.maxAgeDays ?? 0 },
      maxDatabaseMB: file.retention?.maxDatabaseMB ?? 0,
      projects: file.retention?.projects ?? {},
    },
    backup: { keep: file.backup?.keep ?? 7 },
    extraction: {
      mode: file.extraction?.mode ?? 'auto',
      command: file.extraction?.command ?? DEFAULTS.compressorCommand,
      concurrency: file.extraction?.concurrency ?? 2,
      timeoutMs: file.extraction?.timeoutMs ?? 60_000,
      attempts: file.extraction?.attempts ?? 3,
      claimTtlMs: file.extraction?.claimTtlMs ?? 60_000,
    },
    storage: {
      ...(file.storage?.url ? { url: file.storage.url } : {}),
      schema: file.storage?.schema ?? 'public',
      poolSize: file.storage?.poolSize ?? 10,
      acquireTimeoutMs: file.storage?.acquireTimeoutMs ?? 1000,
      statementTimeoutMs: file.storage?.statementTimeoutMs ?? 10_000,
    },
    team: {
      ...(file.team?.url ? { url: file.team.url.replace(/\/+$/, '') } : {}),
      ...(file.team?.token ? { token: file.team.token } : {}),
      // Most of the budget: the local search runs meanwhile, and merging takes little.
      searchBudgetMs: Math.min(
        file.team?.searchBudgetMs ?? Math.round((budgetMs * 3) / 5),
        budgetMs,
      ),
    },
    rateLimit: {
      failedAuthPerMinute: file.rateLimit?.failedAuthPerMinute ?? 10,
      memberPerSecond: file.rateLimit?.memberPerSecond ?? 50,
      memberBurst: file.rateLimit?.memberBurst ?? 1000,
    },
    buffer: {
      maxPendingBytes: file.buffer?.maxPendingBytes ?? 256 * 1024,
      idleMs: file.buffer?.idleMs ?? 30_000,
      breakerFailures: file.buffer?.breakerFailures ?? 3,
      ceilingBytes: file.buffer?.ceilingBytes ?? 4 * 1024 * 1024,
      compaction: (file.buffer?.compaction ?? {}) as Partial<CompactionOptions>,
    },
  };
  return deepFreeze(settings);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

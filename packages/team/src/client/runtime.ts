import type { RemoteHit, RemoteSource } from '@kiro-learn/retrieval';
import type { Scrubber } from '@kiro-learn/schema';
import type { StorageBackend } from '@kiro-learn/storage';
import type { ActivitySource, TeamLogger } from '../host.js';
import { createTeamClient, type TeamClient, type TeamIdentity } from './client.js';
import { type OutboxPusher, type OutboxTiming, startOutboxPusher } from './outbox.js';
import { createShareTracker, type ShareTracker } from './shares.js';

/** What `GET /v1/sharing` and `kiro-learn team status` report. */
export interface SharingStatus {
  server: string;
  /** Who the token is on the server, when it answered. */
  identity?: TeamIdentity;
  /** Why the server did not answer whoami. */
  server_error?: string;
  shares: Array<{ namespace: string; project_id: string; shared_at: string }>;
  outbox: { count: number; oldest_at?: string; last_error?: string };
  last_push_at?: string;
  last_pull_at?: string;
  /** The last failure of a push or a pull. */
  last_error?: string;
  pushed: number;
  refused: number;
}

/** The developer-machine side of team memory, running inside a collector. */
export interface TeamRuntime {
  readonly client: TeamClient;
  readonly tracker: ShareTracker;
  readonly pusher: OutboxPusher;
  /** Team search and recent records for retrieval (see @kiro-learn/retrieval's RemoteSource). */
  readonly remote: RemoteSource;
  status(): Promise<SharingStatus>;
  close(): Promise<void>;
}

/** A member machine's team settings (the collector's `team` settings). */
export interface TeamSettings {
  /** The team memory server, `https://…`; absent: no team. */
  url?: string;
  /** This member's token (`klm_…`); absent: no team. */
  token?: string;
  /** Of the retrieval budget, how long a prompt waits for the team server's search, in ms. */
  searchBudgetMs: number;
}

/** What team memory on a member's machine runs over. */
export interface TeamRuntimeOptions {
  /** The local store: its shares and outbox (storage.sharing) and records. */
  storage: StorageBackend;
  /** Which server, with which token; no runtime unless both are set. */
  settings: TeamSettings;
  /** The data dir, where the opt-out list (`team-unshared.json`) lives. */
  home: string;
  /** This user's scrubber: records are scrubbed with it before they leave the machine. */
  scrubber: Scrubber;
  logger: TeamLogger;
  /** What happens in the host: new events (their project may be shared), new records. */
  activity: ActivitySource;
  /** Outbox pacing (tests and benchmarks); OUTBOX_TIMING when omitted. */
  timing?: Partial<OutboxTiming>;
}

/** How often the member's identity is asked again (a role can change). */
const WHOAMI_REFRESH_MS = 10 * 60_000;

/**
 * Starts team memory when settings join a team (`team.url` and `team.token`): follows
 * which projects are shared, pushes their outbox, and answers retrieval's team searches.
 * Undefined when no team is joined.
 */
export function startTeamRuntime(options: TeamRuntimeOptions): TeamRuntime | undefined {
  const { storage, settings, scrubber, logger, activity: hub } = options;
  const { url, token } = settings;
  if (!url || !token) return undefined;
  const client = createTeamClient({ url, token });
  const tracker = createShareTracker({ storage, home: options.home, logger });
  const pusher = startOutboxPusher({
    storage,
    client,
    scrubber,
    logger,
    ...(options.timing ? { timing: options.timing } : {}),
  });
  let identity: TeamIdentity | undefined;
  let identityAt = 0;
  let lastPullAt: string | undefined;
  let lastPullError: string | undefined;

  const refreshIdentity = async (signal?: AbortSignal) => {
    identity = await client.whoami(signal);
    identityAt = Date.now();
    return identity;
  };
  refreshIdentity().catch((error: unknown) =>
    logger.warn('team: the team server did not say who this member is', {
      server: client.url,
      error,
    }),
  );
  tracker
    .load()
    .catch((error: unknown) => logger.warn('team: could not read the shared projects', { error }));

  const offHub = hub.on((activity) => {
    if (activity.type === 'event' && activity.event) tracker.observe(activity.event);
    pusher.wake();
  });

  const pulled = (hits: RemoteHit[]): RemoteHit[] => {
    lastPullAt = new Date().toISOString();
    lastPullError = undefined;
    return hits;
  };

  const remote: RemoteSource = {
    budgetMs: settings.searchBudgetMs,
    covers: (namespace) => tracker.projectOf(namespace) !== undefined,
    async search({ namespace, query, limit }, signal) {
      const projectId = tracker.projectOf(namespace);
      if (projectId === undefined) return undefined;
      return pulled(await client.search(projectId, query, limit, signal));
    },
    async recent({ namespace, limit }, signal) {
      const projectId = tracker.projectOf(namespace);
      if (projectId === undefined) return undefined;
      return pulled(await client.recent(projectId, limit, signal));
    },
    self: () => {
      if (Date.now() - identityAt > WHOAMI_REFRESH_MS) {
        identityAt = Date.now();
        refreshIdentity().catch(() => undefined);
      }
      return identity?.member;
    },
    onPlaced(hits, namespace) {
      const projectId = tracker.projectOf(namespace);
      if (projectId === undefined) return;
      storage.sharing
        .rememberTeamRecords(
          hits.map((hit) => ({ record: hit.record, author: hit.author, projectId })),
        )
        .catch((error: unknown) => logger.warn('team: could not keep team records', { error }));
    },
    onError(error) {
      lastPullError = error instanceof Error ? error.message : String(error);
      logger.debug('team: search left out', { error: lastPullError });
    },
  };

  return {
    client,
    tracker,
    pusher,
    remote,
    async status() {
      const [shares, outbox] = await Promise.all([
        storage.sharing.listShares(),
        storage.sharing.outboxSummary(),
      ]);
      let serverError: string | undefined;
      try {
        await refreshIdentity(AbortSignal.timeout(3000));
      } catch (error) {
        serverError = error instanceof Error ? error.message : String(error);
      }
      const lastError = pusher.state.lastError ?? lastPullError;
      return {
        server: client.url,
        ...(identity ? { identity } : {}),
        ...(serverError ? { server_error: serverError } : {}),
        shares: shares.map((s) => ({
          namespace: s.namespace,
          project_id: s.projectId,
          shared_at: s.sharedAt,
        })),
        outbox: {
          count: outbox.count,
          ...(outbox.oldestAt ? { oldest_at: outbox.oldestAt } : {}),
          ...(outbox.lastError ? { last_error: outbox.lastError } : {}),
        },
        ...(pusher.state.lastPushAt ? { last_push_at: pusher.state.lastPushAt } : {}),
        ...(lastPullAt ? { last_pull_at: lastPullAt } : {}),
        ...(lastError ? { last_error: lastError } : {}),
        pushed: pusher.state.pushed,
        refused: pusher.state.refused,
      };
    },
    async close() {
      offHub();
      await pusher.stop();
      await tracker.settled();
    },
  };
}

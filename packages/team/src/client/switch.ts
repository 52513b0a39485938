import type { RemoteSource } from '@kiro-learn/retrieval';
import {
  startTeamRuntime,
  type TeamRuntime,
  type TeamRuntimeOptions,
  type TeamSettings,
} from './runtime.js';

/** What a reload found: joined or not, and the server now in use. */
export interface TeamReload {
  joined: boolean;
  server?: string;
  /** False when the settings named the same server and token as before. */
  changed: boolean;
}

/**
 * The team runtime of a running collector, swappable: `kiro-learn team join` and `team
 * leave` change settings and then ask the collector to reload them (POST
 * /v1/sharing/reload), so joining or leaving needs no restart. Retrieval holds `remote`,
 * which always asks the runtime in force (none: no team results).
 */
export interface TeamSwitch {
  current(): TeamRuntime | undefined;
  /** Team search for retrieval; its sub-budget is the one the collector started with. */
  readonly remote: RemoteSource;
  /** Reads team settings again (`read`), and starts, replaces or stops the runtime. */
  reload(): Promise<TeamReload>;
  close(): Promise<void>;
}

/** A team runtime's options, and where its settings are read again on reload. */
export interface TeamSwitchOptions extends TeamRuntimeOptions {
  /** The team settings as they are now (the daemon reads settings.json and the env again). */
  read?: () => TeamSettings;
}

/** Starts the runtime the settings ask for (none: no team), swappable by `reload`. */
export function createTeamSwitch(options: TeamSwitchOptions): TeamSwitch {
  const { settings, logger } = options;
  let team = settings;
  const start = (next: TeamSettings) => startTeamRuntime({ ...options, settings: next });
  let runtime = start(team);
  // One reload at a time: two quick `team join`s must not leave two pushers running.
  let queue: Promise<unknown> = Promise.resolve();

  const remote: RemoteSource = {
    budgetMs: settings.searchBudgetMs,
    covers: (namespace) => runtime?.remote.covers?.(namespace) ?? false,
    search: (request, signal) =>
      runtime?.remote.search(request, signal) ?? Promise.resolve(undefined),
    recent: (request, signal) =>
      runtime?.remote.recent(request, signal) ?? Promise.resolve(undefined),
    self: () => runtime?.remote.self?.(),
    onPlaced: (hits, namespace) => runtime?.remote.onPlaced?.(hits, namespace),
    onError: (error) => runtime?.remote.onError?.(error),
  };

  return {
    current: () => runtime,
    remote,
    reload() {
      const work = queue.then(async (): Promise<TeamReload> => {
        const next = options.read?.() ?? team;
        const changed = next.url !== team.url || next.token !== team.token;
        if (changed) {
          const old = runtime;
          runtime = undefined;
          await old?.close();
          team = next;
          runtime = start(next);
          logger.info(
            runtime ? 'team: joined, settings reloaded' : 'team: left, settings reloaded',
            { ...(runtime ? { server: runtime.client.url } : {}) },
          );
        }
        return {
          joined: runtime !== undefined,
          changed,
          ...(runtime ? { server: runtime.client.url } : {}),
        };
      });
      queue = work.catch(() => undefined);
      return work;
    },
    async close() {
      await queue;
      await runtime?.close();
      runtime = undefined;
    },
  };
}

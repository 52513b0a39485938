/**
 * The web viewer the collector serves at `/ui/`: the bundled page (built from
 * apps/collector/viewer by viewer/build.mjs into dist/ui) plus the read models it needs
 * beyond the `/v1` API. Internal to the kiro-learn app; the collector mounts it with
 * `app.route('/ui', viewerApp(deps))`.
 */

/** The hono sub-app to mount at `/ui`. */
export { viewerApp } from './app.js';
/** What the collector hands the viewer. */
export type { ViewerDeps } from './deps.js';
/** Row shapes of the viewer's own JSON routes. */
export type { LatencyBucket } from './latency.js';
export type { ProjectRow } from './projects.js';
export type { EventSummary } from './summary.js';

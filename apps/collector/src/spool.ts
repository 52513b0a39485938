import { type Event, EventSchema } from '@kiro-learn/schema';
import { drainSpool } from '@kiro-learn/shims';
import type { Collector } from './app.js';
import type { Logger } from './log/logger.js';

/**
 * Replays events the hooks spooled while the collector was down, through the collector's
 * own HTTP pipeline (validation, scrubbing, dedup, buffer), oldest first. The shims replay
 * too; the spool's lock keeps the two from delivering the same file twice, and dedup by
 * event id makes a repeat harmless.
 */
export async function replaySpool(
  home: string,
  collector: Collector,
  url: string,
  logger: Logger,
): Promise<void> {
  const host = new URL(url).host;
  try {
    const result = await drainSpool(home, async (event: Event) => {
      if (!EventSchema.safeParse(event).success) return 'rejected';
      const response = await collector.app.request('/v1/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', host },
        body: JSON.stringify(event),
      });
      if (response.ok) return 'delivered';
      return response.status >= 500 ? 'retry' : 'rejected';
    });
    if (result.delivered + result.rejected > 0) logger.info('spool replayed', { ...result });
  } catch (error) {
    logger.error('spool replay failed', { error });
  }
}

import { describe, expect, it } from 'vitest';
import { asksEarlierState } from './chain.js';

describe('asksEarlierState: a prompt about how things were, not how they are', () => {
  it('takes questions about an earlier state', () => {
    for (const prompt of [
      'what did we use for background jobs before RabbitMQ?',
      'what was the pool max before we lowered it?',
      'what did we use before switching to pino?',
      'how was the pipeline scheduled before anything else?',
      'which font did we bundle before?',
      'why did we switch from redis?',
    ])
      expect(asksEarlierState(prompt), prompt).toBe(true);
  });

  it('not “before” that orders things now: a gerund, or a compound', () => {
    for (const prompt of [
      'how long does offline sync wait before sending changes?',
      'anything I should know before touching placeOrder.ts?',
      'does the consumer commit offsets before writing to s3?',
      'how do the evening-before reminders get sent',
      'which message broker do background jobs use right now?',
    ])
      expect(asksEarlierState(prompt), prompt).toBe(false);
  });
});

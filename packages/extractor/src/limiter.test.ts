import { describe, expect, it } from 'vitest';
import { createLimiter } from './limiter.js';

describe('createLimiter', () => {
  it('runs at most N at once and starts the rest in arrival order', async () => {
    const limiter = createLimiter(2);
    const started: number[] = [];
    const release: Array<() => void> = [];
    const tasks = [0, 1, 2, 3].map((n) =>
      limiter.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => release.push(resolve));
        return n;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.queued]).toEqual([2, 2]);
    release[1]!();
    await tasks[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    release[0]!();
    await tasks[0];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2, 3]);
    release[2]!();
    release[3]!();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('frees the slot when a task throws', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });
});

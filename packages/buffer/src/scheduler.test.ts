import { describe, expect, it } from 'vitest';
import { createScheduler } from './scheduler.js';
import type { Trigger } from './types.js';

/** Resolves after every timer due within `ms` from now has fired (timers fire in due order). */
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recorder() {
  const fired: Array<[string, Trigger]> = [];
  const scheduler = createScheduler({
    now: () => 1_000,
    fire: (namespace, trigger) => fired.push([namespace, trigger]),
  });
  return { fired, scheduler };
}

describe('scheduler', () => {
  it('fires a project’s trigger once, and says when it fires until then', async () => {
    const { fired, scheduler } = recorder();
    scheduler.arm('/a/', 5, 'idle');
    expect(scheduler.next('/a/')).toEqual({ at: 1_005, trigger: 'idle' });
    expect(scheduler.next('/b/')).toBeUndefined();
    await after(20);
    expect(fired).toEqual([['/a/', 'idle']]);
    expect(scheduler.next('/a/')).toBeUndefined();
  });

  it('keeps one timer per project: arming again replaces it, a negative delay fires at once', async () => {
    const { fired, scheduler } = recorder();
    scheduler.arm('/a/', 5, 'idle');
    scheduler.arm('/a/', -50, 'retry');
    scheduler.arm('/b/', 0, 'startup');
    expect(scheduler.next('/a/')).toEqual({ at: 1_000, trigger: 'retry' });
    await after(20);
    expect(fired.sort()).toEqual([
      ['/a/', 'retry'],
      ['/b/', 'startup'],
    ]);
  });

  it('fires nothing cancelled, and nothing at all once closed', async () => {
    const { fired, scheduler } = recorder();
    scheduler.arm('/a/', 0, 'idle');
    scheduler.cancel('/a/');
    scheduler.arm('/b/', 0, 'idle');
    scheduler.close();
    scheduler.arm('/c/', 0, 'idle');
    expect(scheduler.next('/c/')).toBeUndefined();
    await after(20);
    expect(fired).toEqual([]);
  });
});

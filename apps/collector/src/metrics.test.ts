import { describe, expect, it } from 'vitest';
import { Counter, renderGauge } from './metrics.js';

describe('metrics', () => {
  it('counts per label set and escapes label values', () => {
    const counter = new Counter('c_total', 'Help.');
    counter.inc({ kind: 'prompt', outcome: 'stored' });
    counter.inc({ kind: 'prompt', outcome: 'stored' }, 2);
    counter.inc();
    expect(counter.render()).toBe(
      '# HELP c_total Help.\n# TYPE c_total counter\nc_total{kind="prompt",outcome="stored"} 3\nc_total 1',
    );
    expect(renderGauge('g', 'Help.', [[{ namespace: 'a"b\\c\nd' }, 1]])).toContain(
      'g{namespace="a\\"b\\\\c\\nd"} 1',
    );
  });
});

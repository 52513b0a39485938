import { describe, expect, it } from 'vitest';
import {
  buildNamespace,
  isRecordId,
  isUlid,
  newEventId,
  newRecordId,
  parseNamespace,
} from './index.js';

describe('ids', () => {
  it('makes ULIDs that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId(1_700_000_000_000));
    expect(ids.every(isUlid)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes mr_ record ids', () => {
    const id = newRecordId();
    expect(id).toMatch(/^mr_/);
    expect(isRecordId(id)).toBe(true);
    expect(isRecordId(id.slice(3))).toBe(false);
    expect(isUlid('01ARZ3NDEKTSV4RRFFQ69G5FAVX')).toBe(false);
    expect(isUlid('01arz3ndektsv4rrffq69g5fav')).toBe(false);
  });
});

describe('namespaces', () => {
  it('round-trips, keeping _ and % as ordinary characters', () => {
    const ns = buildNamespace('a_b%c', 'github.com-acme-api');
    expect(ns).toBe('/actor/a_b%c/project/github.com-acme-api/');
    expect(parseNamespace(ns)).toEqual({ actor: 'a_b%c', projectId: 'github.com-acme-api' });
  });

  it('rejects parts that cannot stand in a namespace', () => {
    expect(() => buildNamespace('a/b', 'p')).toThrow(/actor must be/);
    expect(() => buildNamespace('a', '')).toThrow(/projectId must be/);
    expect(parseNamespace('/actor/a/project/p')).toBeUndefined();
    expect(parseNamespace('/actor/a/project/p/extra/')).toBeUndefined();
  });
});

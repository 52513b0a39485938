import { monotonicFactory } from 'ulid';

/** 26 Crockford base-32 characters; the first is at most 7 (48-bit time). */
export const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
export const RECORD_ID_PATTERN = /^mr_[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

const nextUlid = monotonicFactory();

/** A new ULID, monotonic within this process (ids made in one millisecond still sort). */
export function newUlid(time?: number): string {
  return nextUlid(time);
}

export const newEventId = newUlid;

/** A new memory record id: `mr_` + ULID. */
export function newRecordId(time?: number): string {
  return `mr_${nextUlid(time)}`;
}

export function isUlid(value: unknown): value is string {
  return typeof value === 'string' && ULID_PATTERN.test(value);
}

export function isRecordId(value: unknown): value is string {
  return typeof value === 'string' && RECORD_ID_PATTERN.test(value);
}

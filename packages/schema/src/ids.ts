/** 26 Crockford base-32 characters; the first is at most 7 (48-bit time). */
export const ULID_PATTERN = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
export const RECORD_ID_PATTERN = /^mr_[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = -1;
const lastRandom = new Uint8Array(16); // 16 base-32 digits = 80 bits

/**
 * Monotonic ULID on Web Crypto (no `node:crypto`, so this runs in browsers too): within one
 * millisecond the random part is incremented, so ids made in order sort in order.
 */
function nextUlid(time = Date.now()): string {
  if (time === lastTime) {
    let i = 15;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i >= 0) lastRandom[i]! += 1;
  } else {
    globalThis.crypto.getRandomValues(lastRandom);
    for (let i = 0; i < 16; i++) lastRandom[i]! &= 31;
    lastTime = time;
  }
  let out = '';
  let t = time;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out;
    t = Math.floor(t / 32);
  }
  for (const digit of lastRandom) out += ALPHABET[digit];
  return out;
}

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

import { closeSync, openSync, readSync } from 'node:fs';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID for the hook process. Not the schema's `newUlid`: that draws on Web Crypto, whose
 * first use loads node:crypto and costs every hook several milliseconds of start-up. Ten
 * bytes of /dev/urandom cost a read; where there is none, Math.random (V8 seeds it from the
 * OS) is enough for ids that must be unique, not secret.
 */
export function hookUlid(time: number = Date.now()): string {
  const random = new Uint8Array(16);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      readSync(fd, random, 0, 16, null);
    } finally {
      closeSync(fd);
    }
  } catch {
    for (let i = 0; i < 16; i++) random[i] = Math.floor(Math.random() * 256);
  }
  let id = '';
  for (let i = 9, t = time; i >= 0; i--, t = Math.floor(t / 32)) id = ALPHABET[t % 32]! + id;
  for (let i = 0; i < 16; i++) id += ALPHABET[random[i]! & 31];
  return id;
}

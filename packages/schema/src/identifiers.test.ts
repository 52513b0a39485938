import { describe, expect, it } from 'vitest';
import { forbiddenCharacter } from './identifiers.js';

describe('forbiddenCharacter', () => {
  it.each([
    ['a\u0000b', 'NUL (U+0000) at index 1'],
    ['a\tb', 'a control character (U+0009) at index 1'],
    ['\u0085', 'a control character (U+0085) at index 0'],
    ['abc\u202Egnp.exe', 'a bidirectional control (U+202E) at index 3'],
    ['x\u2066y', 'a bidirectional control (U+2066) at index 1'],
    ['p\uD800', 'an unpaired surrogate (U+D800) at index 1'],
    ['\uDC00p', 'an unpaired surrogate (U+DC00) at index 0'],
    ['a\uDBFF\uDBFFb', 'an unpaired surrogate (U+DBFF) at index 1'],
  ])('refuses %j', (value, reason) => {
    expect(forbiddenCharacter(value)).toBe(`contains ${reason}`);
  });

  it.each(['plain', 'app-1f2e3d4c5b6a', 'émile', '项目', 'emoji-\uD83D\uDE00', 'a_b%c'])(
    'accepts %j',
    (value) => {
      expect(forbiddenCharacter(value)).toBeUndefined();
    },
  );
});

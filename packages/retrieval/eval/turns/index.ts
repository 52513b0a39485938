import { ALLOTMENT_PROMPTS, ALLOTMENT_RECORDS } from './allotment.ts';
import { BEACON_PROMPTS, BEACON_RECORDS } from './beacon.ts';
import { DARKROOM_PROMPTS, DARKROOM_RECORDS } from './darkroom.ts';
import { PANTRY_PROMPTS, PANTRY_RECORDS } from './pantry.ts';
import type { TurnsPrompt, TurnsRecord } from './set.ts';
import { TICKER_PROMPTS, TICKER_RECORDS } from './ticker.ts';
import { VOYAGE_PROMPTS, VOYAGE_RECORDS } from './voyage.ts';

export const TURNS_RECORDS: readonly TurnsRecord[] = [
  ...TICKER_RECORDS,
  ...ALLOTMENT_RECORDS,
  ...PANTRY_RECORDS,
  ...VOYAGE_RECORDS,
  ...DARKROOM_RECORDS,
  ...BEACON_RECORDS,
];
export const TURNS_PROMPTS: readonly TurnsPrompt[] = [
  ...TICKER_PROMPTS,
  ...ALLOTMENT_PROMPTS,
  ...PANTRY_PROMPTS,
  ...VOYAGE_PROMPTS,
  ...DARKROOM_PROMPTS,
  ...BEACON_PROMPTS,
];

import { CONSOLE_PROMPTS, CONSOLE_RECORDS } from './console.ts';
import { FIELDKIT_PROMPTS, FIELDKIT_RECORDS } from './fieldkit.ts';
import { NOTCH_PROMPTS, NOTCH_RECORDS } from './notch.ts';
import { PAYDESK_PROMPTS, PAYDESK_RECORDS } from './paydesk.ts';
import { PLATFORM_PROMPTS, PLATFORM_RECORDS } from './platform.ts';
import { RIVERBED_PROMPTS, RIVERBED_RECORDS } from './riverbed.ts';
import type { SetPrompt, SetRecord } from './set.ts';

export const PARAPHRASE_RECORDS: readonly SetRecord[] = [
  ...PAYDESK_RECORDS,
  ...NOTCH_RECORDS,
  ...RIVERBED_RECORDS,
  ...FIELDKIT_RECORDS,
  ...PLATFORM_RECORDS,
  ...CONSOLE_RECORDS,
];
export const PARAPHRASE_PROMPTS: readonly SetPrompt[] = [
  ...PAYDESK_PROMPTS,
  ...NOTCH_PROMPTS,
  ...RIVERBED_PROMPTS,
  ...FIELDKIT_PROMPTS,
  ...PLATFORM_PROMPTS,
  ...CONSOLE_PROMPTS,
];

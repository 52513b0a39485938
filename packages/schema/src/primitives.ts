import { z } from 'zod';
import { forbiddenCharacter, IDENTIFIER_RULE } from './identifiers.js';
import { RECORD_ID_PATTERN, ULID_PATTERN } from './ids.js';
import { NAMESPACE_PATTERN, parseNamespace } from './namespace.js';

export const UlidSchema = z
  .string()
  .regex(ULID_PATTERN, 'must be a ULID (26 Crockford base-32 characters)');
export const RecordIdSchema = z.string().regex(RECORD_ID_PATTERN, 'must be mr_ followed by a ULID');
export const NamespaceSchema = z.string().superRefine((value, ctx) => {
  const forbidden = forbiddenCharacter(value);
  if (forbidden) {
    ctx.addIssue({ code: 'custom', message: `${forbidden}; a namespace ${IDENTIFIER_RULE}` });
  } else if (!NAMESPACE_PATTERN.test(value) || !parseNamespace(value)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must look like /actor/<actor>/project/<project_id>/',
    });
  }
});

/**
 * A free-form id (`session_id`, `actor_id`, `client_id`, a record's `strategy`): 1 to
 * `max` characters, none of them a control, bidi or unpaired-surrogate character.
 */
export function idString(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .superRefine((value, ctx) => {
      const forbidden = forbiddenCharacter(value);
      if (forbidden)
        ctx.addIssue({ code: 'custom', message: `${forbidden}; an id ${IDENTIFIER_RULE}` });
    });
}
/**
 * An ISO-8601 date-time with an offset, normalised to UTC (`2026-11-20T10:15:00+02:00` →
 * `2026-11-20T08:15:00.000Z`), so stored times sort and filter correctly as strings.
 * Precision is kept to the millisecond.
 */
export const IsoDateTimeSchema = z.iso.datetime({ offset: true }).transform((value, ctx) => {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    ctx.issues.push({ code: 'custom', message: 'is not a real date and time', input: value });
    return z.NEVER;
  }
  return new Date(ms).toISOString();
});

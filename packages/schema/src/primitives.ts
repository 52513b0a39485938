import { z } from 'zod';
import { RECORD_ID_PATTERN, ULID_PATTERN } from './ids.js';
import { isNamespace } from './namespace.js';

export const UlidSchema = z
  .string()
  .regex(ULID_PATTERN, 'must be a ULID (26 Crockford base-32 characters)');
export const RecordIdSchema = z.string().regex(RECORD_ID_PATTERN, 'must be mr_ followed by a ULID');
export const NamespaceSchema = z
  .string()
  .refine(isNamespace, 'must look like /actor/<actor>/project/<project_id>/');
export const IsoDateTimeSchema = z.iso.datetime({ offset: true });

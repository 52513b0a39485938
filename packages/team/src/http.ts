import { formatIssues } from '@kiro-learn/schema';
import type { Context } from 'hono';
import type { z } from 'zod';
import { refuse } from './errors.js';

/** Parses with a schema, or throws a 400 listing every issue as `dot.path: message`. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const result = schema.safeParse(input);
  if (!result.success) throw refuse(400, `invalid ${what}`, formatIssues(result.error));
  return result.data;
}

/**
 * A plain JSON body reader for hosts without their own: refuses a body over `maxBytes`
 * (413), an empty one and one that is not JSON (400).
 */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > maxBytes) throw refuse(413, `request body is larger than ${maxBytes} bytes`);
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.length > maxBytes) throw refuse(413, `request body is larger than ${maxBytes} bytes`);
  if (bytes.length === 0) throw refuse(400, 'request body is empty; send a JSON document');
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw refuse(400, 'request body is not valid JSON', (error as Error).message);
  }
}

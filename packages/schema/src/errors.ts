import type { z } from 'zod';

/** Error codes of this package. */
export type SchemaErrorCode = 'invalid' | 'invalid_namespace';

/** The one error class of @kiro-learn/schema; `issues` are `dot.path: message` lines. */
export class SchemaError extends Error {
  readonly code: SchemaErrorCode;
  readonly issues: string[];

  constructor(code: SchemaErrorCode, message: string, issues: string[] = []) {
    super(issues.length > 0 ? `${message}: ${issues.join('; ')}` : message);
    this.name = 'SchemaError';
    this.code = code;
    this.issues = issues;
  }
}

/** Flattens zod issues to `dot.path: message` (the root is `(root)`). */
export function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return `${path === '' ? '(root)' : path}: ${issue.message}`;
  });
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** Parses with a schema and returns flattened errors instead of throwing. */
export function safeParse<T>(schema: z.ZodType<T>, input: unknown): ParseResult<T> {
  const result = schema.safeParse(input);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, errors: formatIssues(result.error) };
}

/** Parses with a schema or throws a SchemaError listing every issue. */
export function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, what = 'value'): T {
  const result = safeParse(schema, input);
  if (!result.ok) throw new SchemaError('invalid', `invalid ${what}`, result.errors);
  return result.value;
}

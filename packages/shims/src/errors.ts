/** What went wrong, as a stable string a caller can branch on. */
export type ShimsErrorCode =
  | 'invalid_json'
  | 'not_a_directory'
  | 'missing_bundle'
  | 'write_failed'
  | 'bad_option';

/** The one error class of @kiro-learn/shims; `message` says what to do about it. */
export class ShimsError extends Error {
  readonly code: ShimsErrorCode;

  constructor(code: ShimsErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ShimsError';
    this.code = code;
  }
}

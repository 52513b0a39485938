// Replaced by the bundler with the package version; the library build reports `dev`.
declare const KIRO_LEARN_SHIM_VERSION: string | undefined;

/** The shim version recorded in every event's `source.version`. */
export const SHIM_VERSION: string =
  typeof KIRO_LEARN_SHIM_VERSION === 'string' ? KIRO_LEARN_SHIM_VERSION : '0.0.0-dev';

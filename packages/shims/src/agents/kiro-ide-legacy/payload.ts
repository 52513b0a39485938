/**
 * Legacy Kiro IDE 0.x `.kiro.hook` payloads: the text in the `USER_PROMPT` environment
 * variable (stdin is opened but never written or closed: reading it would hang), the
 * event named on the command line. Types only.
 */

/** `USER_PROMPT` of a `postToolUse` hook: camelCase JSON. */
export interface KiroLegacyToolPayload {
  toolName: string;
  toolArgs: Record<string, unknown>;
  toolResult: unknown;
  toolSuccess: boolean;
}

/** `promptSubmit`: the prompt text; `agentStop`: usually empty. */
export type KiroLegacyTextPayload = string;

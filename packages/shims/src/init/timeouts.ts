/**
 * The timeout every hook kiro-learn installs declares, in seconds, per agent: below the
 * agent's own limit, so the agent never cancels a hook that is still within its budget,
 * and above what a hook can take (its stdin read, one request, a spool replay: the
 * launcher's and the shim's own deadlines stay under these values).
 *
 * Each agent module writes the value in its agent's unit (Gemini CLI: milliseconds).
 */
export const HOOK_TIMEOUT_SECONDS = {
  /**
   * Claude Code: command hooks default to 600 s; `SessionEnd` hooks share a 1.5 s budget
   * on exit, which a longer per-hook `timeout` raises, up to 60 s (code.claude.com
   * hooks reference; anthropics/claude-code#33706).
   */
  'claude-code': 10,
} as const;

import { checkCompactionOptions } from '@kiro-learn/buffer';
import { createScrubber } from '@kiro-learn/schema';
import { type CollectorSettings, isLoopbackHost } from './settings.js';

/** What the rules found: errors stop start-up, warnings are logged. Both `dot.path: message`. */
export interface RuleFindings {
  errors: string[];
  warnings: string[];
}

/** Checks that span fields, after the schema has checked each field alone. */
export function checkRules(settings: CollectorSettings): RuleFindings {
  const errors: string[] = [];
  const warnings: string[] = [];

  if (!isLoopbackHost(settings.host) && !settings.token) {
    errors.push(
      `token: binding ${settings.host} (not a loopback address) lets other machines reach the collector, so a bearer token is required: set KIRO_LEARN_TOKEN or "token" in settings.json, or bind 127.0.0.1`,
    );
  }
  if (settings.token && settings.token.length < 16) {
    warnings.push('token: shorter than 16 characters; use a long random value');
  }
  if (settings.retrieval.budgetMs >= 2000) {
    warnings.push(
      'retrieval.budgetMs: the shims give up after 2000 ms, so a budget this long can lose the context',
    );
  }
  if (settings.buffer.ceilingBytes < settings.buffer.maxPendingBytes) {
    errors.push(
      `buffer.ceilingBytes: must be at least buffer.maxPendingBytes (${settings.buffer.maxPendingBytes}), or events would stop being buffered before extraction triggers`,
    );
  }
  if (settings.team.url && !settings.team.token) {
    errors.push(
      'team.token: team.url is set but there is no member token: run kiro-learn team join <url> --token <token>, or set KIRO_LEARN_TEAM_TOKEN',
    );
  }
  errors.push(...checkCompactionOptions(settings.buffer.compaction, 'buffer.compaction'));
  settings.privacy.extraPatterns.forEach((pattern, index) => {
    try {
      createScrubber({ extraPatterns: [pattern] });
    } catch (error) {
      errors.push(`privacy.extraPatterns.${index}: ${(error as Error).message}`);
    }
  });
  return { errors, warnings };
}

import { type MapResult, type Payload, skip, str } from '../hook.js';
import { lastAssistantText } from '../transcript.js';
import { summaryBody, toolBody } from './kiro.js';

/** Claude Code hooks (`.claude/settings.json`); Stop reads the answer from the transcript. */
export function mapClaudeCode(payload: Payload): MapResult {
  const name = str(payload['hook_event_name']);
  if (!name) return skip('the payload has no hook_event_name', true);
  const base = {
    surface: 'claude-code' as const,
    hook: name,
    ...(str(payload['cwd']) ? { cwd: str(payload['cwd'])! } : {}),
    ...(str(payload['session_id']) ? { sessionId: str(payload['session_id'])! } : {}),
    startsSession: false,
    retrieve: false,
  };
  switch (name) {
    case 'SessionStart':
      return {
        hook: {
          ...base,
          kind: 'note',
          body: { type: 'json', data: { hook: name, source: str(payload['source']) ?? null } },
          startsSession: true,
        },
      };
    case 'UserPromptSubmit': {
      const prompt = str(payload['prompt']);
      if (!prompt?.trim()) return skip('empty prompt');
      return {
        hook: { ...base, kind: 'prompt', body: { type: 'text', content: prompt }, retrieve: true },
      };
    }
    case 'PostToolUse':
      return { hook: { ...base, kind: 'tool_use', body: toolBody(payload) } };
    case 'Stop': {
      const transcript = str(payload['transcript_path']);
      const text = transcript ? lastAssistantText(transcript) : undefined;
      return { hook: { ...base, kind: 'session_summary', body: summaryBody(text) } };
    }
    default:
      return skip(`hook ${name} is not recorded`);
  }
}

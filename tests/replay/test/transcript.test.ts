import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../src/sources.ts';
import { transcriptToHooks } from '../src/transcript.ts';

const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8');
const options = { cwd: '/replay/spotter', transcriptPath: '/replay/t.jsonl' };

describe('a Claude Code transcript as the hook payloads Claude Code sent', () => {
  it('opens with SessionStart, gives each turn its prompt, tool calls and Stop, and ends the session', () => {
    const t = transcriptToHooks(fixture('fasthooks-sample-main'), options);
    const events = t.calls.map((c) => c.event);
    expect(events[0]).toBe('SessionStart');
    expect(events.at(-1)).toBe('SessionEnd');
    expect(t.prompts[0]).toBe('can you run a command ls -la');
    expect(events.filter((e) => e === 'UserPromptSubmit')).toHaveLength(t.prompts.length);
    // Every turn that was not interrupted ends with a Stop carrying the turn's last text.
    const stops = t.calls.filter((c) => c.event === 'Stop');
    expect(stops.length).toBeGreaterThan(0);
    for (const stop of stops) expect(typeof stop.payload.last_assistant_message).toBe('string');
    // The compaction the session went through.
    expect(events).toContain('PreCompact');
    const first = t.calls.find((c) => c.event === 'PostToolUse')!;
    expect(first.payload).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls -la' },
      tool_response: { stdout: expect.stringContaining('fibonacci.js'), interrupted: false },
      cwd: '/replay/spotter',
      transcript_path: '/replay/t.jsonl',
    });
  });

  it('sends a failed call to PostToolUseFailure with its error, and leaves out calls the user refused', () => {
    const t = transcriptToHooks(fixture('fasthooks-sample-main'), options);
    const failure = t.calls.find((c) => c.event === 'PostToolUseFailure');
    expect(failure?.payload).toMatchObject({ tool_name: 'Bash', is_interrupt: false });
    expect(String(failure?.payload.error)).toMatch(/nonexistent/);
    const refused = transcriptToHooks(fixture('spotter-short'), options);
    // Two calls in the transcript, both refused by the user, and the turn interrupted: no
    // tool hook and no Stop.
    expect(refused.calls.map((c) => c.event)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'SessionEnd',
    ]);
  });

  it("rewrites the session's directory to the replay's project, and nothing else", () => {
    const t = transcriptToHooks(fixture('spotter-tool-heavy'), options);
    const text = JSON.stringify(t.calls);
    expect(text).not.toContain(t.originalCwd);
    expect(text).toContain('/replay/spotter');
    expect(t.calls.every((c) => c.payload.session_id === t.sessionId)).toBe(true);
  });

  it('skips what Claude Code writes itself: command output, notifications, meta lines', () => {
    const line = (content: unknown, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        type: 'user',
        sessionId: 's',
        cwd: '/w',
        message: { role: 'user', content },
        ...extra,
      });
    const text = [
      line('<local-command-caveat>Caveat: …</local-command-caveat>'),
      line('<command-name>/plugin</command-name><command-args></command-args>'),
      line('<local-command-stdout>(no content)</local-command-stdout>'),
      line('<command-name>/review</command-name><command-args>src/a.ts</command-args>'),
      line('expanded command text', { isMeta: true }),
      line('<task-notification><status>completed</status></task-notification>'),
      line([{ type: 'text', text: 'fix the flaky test' }]),
      '{"torn line',
    ].join('\n');
    const t = transcriptToHooks(text, { cwd: '/p', transcriptPath: '/t' });
    expect(t.prompts).toEqual(['/review src/a.ts', 'fix the flaky test']);
  });
});

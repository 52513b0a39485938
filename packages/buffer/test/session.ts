import { type Event, newEventId } from '@kiro-learn/schema';

/**
 * A synthetic long coding session of about `bytes` serialized bytes, in turns: a prompt,
 * six file reads (whole files), a file edit, a test run (failing every fifth turn, with
 * its output) and the turn end. Shared by the backlog test and the benchmark.
 */
export function* longSession(namespace: string, bytes: number): Generator<Event> {
  const start = Date.parse('2025-06-01T09:00:00.000Z');
  let made = 0;
  let n = 0;
  const make = (kind: Event['kind'], body: Event['body']): Event => {
    const event: Event = {
      event_id: newEventId(),
      session_id: 'long-session',
      actor_id: 'dev',
      namespace,
      schema_version: 1,
      kind,
      body,
      valid_time: new Date(start + n++ * 1000).toISOString(),
      source: { surface: 'kiro-cli', version: '1', client_id: 'synthetic' },
    };
    made += JSON.stringify(event).length;
    return event;
  };
  const tool = (tool_name: string, tool_input: unknown, tool_response: unknown) =>
    make('tool_use', { type: 'json', data: { tool_name, tool_input, tool_response } });
  const file = (turn: number, i: number) =>
    Array.from(
      { length: 150 },
      (_, line) => `export const value${turn}_${i}_${line} = compute(${line}, "module ${i}");`,
    ).join('\n');
  for (let turn = 0; made < bytes; turn++) {
    yield make('prompt', {
      type: 'text',
      content: `Turn ${turn}: make module ${turn % 40} faster`,
    });
    for (let i = 0; i < 6; i++)
      yield tool(
        'fs_read',
        { path: `src/module${(turn + i) % 40}.ts` },
        { success: true, result: [file(turn, i)] },
      );
    yield tool(
      'fs_write',
      {
        command: 'str_replace',
        path: `src/module${turn % 40}.ts`,
        old_str: file(turn, 9).slice(0, 1500),
        new_str: file(turn, 8).slice(0, 1500),
      },
      { success: true },
    );
    const failing = turn % 5 === 0;
    yield tool(
      'execute_bash',
      { command: 'pnpm vitest run' },
      {
        success: !failing,
        result: [
          {
            exit_status: failing ? '1' : '0',
            stdout: failing
              ? `FAIL src/module${turn % 40}.test.ts > expected 2 to be 3\n Tests  1 failed | 40 passed (41)`
              : ' Tests  41 passed (41)',
          },
        ],
      },
    );
    yield make('session_summary', { type: 'text', content: '' });
  }
}

/**
 * A turn of the turn-chain set as the events the collector stores for it: the prompt, one
 * `tool_use` per call as the Claude Code shim records PostToolUse, and the closing message
 * (`session_summary`), one minute apart from `time` on.
 */
import { type Event, newEventId } from '@kiro-learn/schema';
import type { TurnStep, TurnTool } from './turns.ts';

/** Where the eval's projects are checked out (paths in tool calls are under it). */
export const projectPath = (project: string) => `/home/dev/src/${project}`;

function toolCall(
  project: string,
  tool: TurnTool,
): { name: string; input: object; response: object } {
  const at = (file: string) => `${projectPath(project)}/${file}`;
  if ('edit' in tool) {
    const [file, before, after] = tool.edit;
    return {
      name: 'Edit',
      input: { file_path: at(file), old_string: before, new_string: after },
      response: { filePath: at(file), oldString: before, newString: after },
    };
  }
  if ('write' in tool) {
    const [file, content] = tool.write;
    return {
      name: 'Write',
      input: { file_path: at(file), content },
      response: { type: 'create', filePath: at(file) },
    };
  }
  if ('bash' in tool) {
    const [command, stdout] = tool.bash;
    return {
      name: 'Bash',
      input: { command },
      response: { stdout, stderr: '', interrupted: false },
    };
  }
  return {
    name: 'Read',
    input: { file_path: at(tool.read) },
    response: { type: 'text', file: { filePath: at(tool.read), content: '…' } },
  };
}

export function turnEvents(
  namespace: string,
  project: string,
  session: string,
  step: TurnStep,
  time: number,
): Event[] {
  let t = time;
  const event = (kind: Event['kind'], body: Event['body']): Event => {
    t += 60_000;
    return {
      event_id: newEventId(t),
      session_id: session,
      actor_id: 'dev',
      namespace,
      schema_version: 1,
      kind,
      body,
      valid_time: new Date(t).toISOString(),
      source: {
        surface: 'claude-code',
        version: '2.1.0',
        client_id: 'eval',
        project_path: projectPath(project),
      },
    };
  };
  return [
    event('prompt', { type: 'text', content: step.prompt }),
    ...step.tools.map((tool) => {
      const call = toolCall(project, tool);
      return event('tool_use', {
        type: 'json',
        data: { tool_name: call.name, tool_input: call.input, tool_response: call.response },
      });
    }),
    event('session_summary', { type: 'text', content: step.answer }),
  ];
}

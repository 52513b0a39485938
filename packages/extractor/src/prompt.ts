import { OBSERVATION_TYPES } from '@kiro-learn/schema';
import { escapeXml } from './xml.js';

/**
 * What the compressor is asked to do. Sent with every prompt (not only in the agent
 * definition) so any ACP agent can serve as the compressor.
 */
export const COMPRESSOR_INSTRUCTIONS = `You are kiro-learn's memory compressor. Below are events from one coding session: what the user asked (<user_prompt>), each tool the agent used (<tool_use> with its name, input and output) and the end of a turn (<turn_end>, sometimes empty). Distil what a developer would want remembered next time they work on this project: decisions and why, errors and how they were fixed, how the code is laid out, commands and tests that matter, what the user asked for.

Reply with XML only, one block per memory:
<memory_record type="TYPE">
  <title>short and specific: name the file, the error, the fix</title>
  <summary>a few sentences that stand on their own</summary>
  <facts><fact>one precise fact</fact></facts>
  <concepts><concept>keyword</concept></concepts>
  <files><file>path/of/a/file</file></files>
  <sources><event_id>EVENT_ID the record comes from</event_id></sources>
</memory_record>
TYPE is one of: ${OBSERVATION_TYPES.join(', ')}. Write one session_summary record per finished turn. Cite in <sources> the event_id of every event a record comes from. Escape &, < and > in text. If nothing is worth remembering, reply exactly <skip/>. Do not use tools. Do not add any other text.
A <compaction_summary> before the events, when present, summarizes older events already stored as memory: do not repeat it. An event whose text is a one-line "[kiro-learn archived|dropped|structured …]" marker was reduced to save space; you may cite its event_id.`;

/** The whole prompt for one framed `<events>` block, after the compaction summary when there is one. */
export function buildPrompt(framedEvents: string, summary?: string): string {
  const before = summary ? `<compaction_summary>${escapeXml(summary)}</compaction_summary>\n` : '';
  return `${COMPRESSOR_INSTRUCTIONS}\n\n${before}${framedEvents}\n`;
}

/** Name of the Kiro agent `kiro-learn init` installs. */
export const COMPRESSOR_AGENT_NAME = 'kiro-learn-compressor';

/**
 * The Kiro agent definition `kiro-learn init` writes to
 * `~/.kiro/agents/kiro-learn-compressor.json`: no tools, no MCP servers, no hooks (a
 * compressor that fired kiro-learn's own hooks would feed on itself).
 */
export function compressorAgentConfig(): Record<string, unknown> {
  return {
    name: COMPRESSOR_AGENT_NAME,
    description: 'kiro-learn: distils coding-session events into memory records. No tools.',
    prompt: COMPRESSOR_INSTRUCTIONS,
    tools: [],
    allowedTools: [],
    mcpServers: {},
    includeMcpJson: false,
    resources: [],
    hooks: {},
  };
}

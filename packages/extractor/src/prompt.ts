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
TYPE is one of: ${OBSERVATION_TYPES.join(', ')}. Write one session_summary record per finished turn that learned something. A turn in which the user only asked and the agent used no tool and gave no answer worth keeping gets no record: never write a record that only repeats what the user asked. A title says what happened, its subject and outcome (never just "Done" or the request alone). Titles, summaries and facts are plain text: no markdown headings, tables or code blocks; the agent's closing message is summarized into facts, not pasted. Cite in <sources> the event_id of every event a record comes from. Escape &, < and > in text. If nothing is worth remembering, reply exactly <skip/>. Do not use tools. Do not add any other text.
In each record, add <questions><question>…</question></questions>: two or three questions a developer might ask later that this record answers, in their own words (not the title again).
An <existing_memories> list before the events, when present, holds memories already stored for this project. When a record you write makes one of them no longer true (a value changed, a decision reversed, something replaced, removed or fixed), name it in that record: <supersedes><record_id>ID</record_id></supersedes>, using only ids from that list. Do not repeat an existing memory that still holds.
A <compaction_summary> before the events, when present, summarizes older events already stored as memory: do not repeat it. An event whose text is a one-line "[kiro-learn archived|dropped|structured …]" marker was reduced to save space; you may cite its event_id.`;

/** An existing memory as the compressor sees it (`<existing_memories>`). */
export interface PromptMemory {
  record_id: string;
  title: string;
  summary: string;
  created_at: string;
}

/** How much of an existing memory's summary the prompt shows. */
const MEMORY_SUMMARY_CHARS = 300;

/**
 * The whole prompt for one framed `<events>` block, after the compaction summary and the
 * project's existing memories (which a record may supersede) when there are any.
 */
export function buildPrompt(
  framedEvents: string,
  summary?: string,
  memories: readonly PromptMemory[] = [],
): string {
  const before = summary ? `<compaction_summary>${escapeXml(summary)}</compaction_summary>\n` : '';
  const existing = memories.length
    ? `<existing_memories>\n${memories
        .map(
          (m) =>
            `<memory id="${escapeXml(m.record_id)}" created="${escapeXml(m.created_at)}"><title>${escapeXml(m.title)}</title><summary>${escapeXml(m.summary.slice(0, MEMORY_SUMMARY_CHARS))}</summary></memory>`,
        )
        .join('\n')}\n</existing_memories>\n`
    : '';
  return `${COMPRESSOR_INSTRUCTIONS}\n\n${before}${existing}${framedEvents}\n`;
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

#!/usr/bin/env node
/**
 * kiro-learn's scripted ACP test agent: a real ACP agent over stdio (the SDK's agent
 * side) whose behaviour is chosen by a mode, so tests and `kiro-learn doctor` can drive
 * the real client through every success and failure path without a model.
 *
 * Mode: first argument, else KIRO_LEARN_TEST_AGENT_MODE, else `records`.
 *   records   valid <memory_record> blocks citing the prompt's event ids, streamed in chunks;
 *             the summary carries <questions> (doc2query), and names as superseded an
 *             <existing_memories> entry whose title contains "[replace me]"
 *   instant   the same reply in one chunk, at once (for benchmarks)
 *   skip      <skip/>
 *   garbage   conversational text (neither records nor skip)
 *   flaky     garbage for the first KIRO_LEARN_TEST_AGENT_FAILS (1) sessions, then records;
 *             sessions are counted in the file KIRO_LEARN_TEST_AGENT_STATE
 *   slow      records after KIRO_LEARN_TEST_AGENT_DELAY_MS (2000) ms
 *   hang      never replies
 *   stubborn  never replies and ignores SIGTERM (only SIGKILL stops it)
 *   crash     streams one chunk, then exits 70 mid-turn
 *   exit      exits 2 at start, before speaking ACP
 *   script    the Nth session replies with the Nth string of the JSON array in the file
 *             KIRO_LEARN_TEST_AGENT_SCRIPT (the last one repeats); sessions are counted in
 *             KIRO_LEARN_TEST_AGENT_STATE
 * A compaction request (the buffer's summarizer) gets, in every records-like mode, a
 * <compaction_summary> that keeps the previous facts and counts the events it saw.
 * KIRO_LEARN_TEST_AGENT_PIDFILE, when set, gets this process's pid appended (one a line).
 *
 * This file imports only the SDK so it runs straight from source under Node's type
 * stripping as well as from dist.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { Readable, Writable } from 'node:stream';

const MODES = [
  'records',
  'instant',
  'skip',
  'garbage',
  'flaky',
  'slow',
  'hang',
  'stubborn',
  'crash',
  'exit',
  'script',
];
const mode = process.argv[2] ?? process.env.KIRO_LEARN_TEST_AGENT_MODE ?? 'records';
if (!MODES.includes(mode)) {
  process.stderr.write(`test agent: unknown mode ${mode}; use one of ${MODES.join(', ')}\n`);
  process.exit(64);
}
if (process.env.KIRO_LEARN_TEST_AGENT_PIDFILE) {
  appendFileSync(process.env.KIRO_LEARN_TEST_AGENT_PIDFILE, `${process.pid}\n`);
}
if (mode === 'exit') {
  process.stderr.write('test agent: refusing to start (mode exit)\n');
  process.exit(2);
}
if (mode === 'stubborn') {
  process.on('SIGTERM', () => process.stderr.write('test agent: ignoring SIGTERM\n'));
  // Outlive the closed stdin too: only SIGKILL ends this mode.
  setInterval(() => {}, 1 << 30);
}

function fromXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function toXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Keeps every previous fact and adds the running count of events summarized. */
function compactionReply(prompt: string): string {
  const given =
    /<compaction_request mode=[^>]*>[\s\S]*?<facts>([\s\S]*?)<\/facts>/.exec(prompt)?.[1] ?? '';
  const facts = new Map(
    [...given.matchAll(/<fact key="([^"]*)">([\s\S]*?)<\/fact>/g)].map((m) => [m[1]!, m[2]!]),
  );
  const ids = prompt.match(/event_id="[0-9A-Z]{26}"/g)?.length ?? 0;
  facts.set('events summarized', String(Number(facts.get('events summarized') ?? 0) + ids));
  const lines = [...facts].map(([key, value]) => `<fact key="${key}">${value}</fact>`);
  return `<compaction_summary><title>Test agent compaction</title><summary>The scripted test agent folded ${ids} events into the summary.</summary><facts>${lines.join('')}</facts><obsolete></obsolete></compaction_summary>`;
}

function scriptReply(): string {
  const replies = JSON.parse(readFileSync(process.env.KIRO_LEARN_TEST_AGENT_SCRIPT ?? '', 'utf8'));
  const state = process.env.KIRO_LEARN_TEST_AGENT_STATE ?? '';
  let seen = 0;
  try {
    seen = Number(readFileSync(state, 'utf8')) || 0;
  } catch {}
  writeFileSync(state, String(seen + 1));
  return String(replies[Math.min(seen, replies.length - 1)] ?? '');
}

/** Two valid records (one citing every event, one citing the first) and one the client must drop. */
function recordsReply(prompt: string): string {
  if (prompt.includes('<compaction_request mode=')) return compactionReply(prompt);
  const ids = [...prompt.matchAll(/event_id="([0-9A-Z]{26})"/g)].map((match) => match[1]!);
  const asked = /<user_prompt event_id=[^>]*>([\s\S]*?)<\/user_prompt>/.exec(prompt)?.[1];
  const request = asked ? fromXml(asked).trim().slice(0, 120) : `${ids.length} events`;
  const sources = (list: string[]) => list.map((id) => `<event_id>${id}</event_id>`).join('');
  // An existing memory whose title asks to be replaced is named as superseded (tests use it).
  const memory = [
    ...prompt.matchAll(/<memory id="(mr_[0-9A-Z]{26})"[^>]*><title>([^<]*)<\/title>/g),
  ].find((match) => /\[replace me\]/i.test(match[2]!))?.[1];
  return [
    '<memory_record type="session_summary">',
    `<title>Test agent summary: ${toXml(request)}</title>`,
    `<summary>The scripted test agent read ${ids.length} events &amp; summarised them.</summary>`,
    `<facts><fact>events seen: ${ids.length}</fact></facts>`,
    '<concepts><concept>test-agent</concept></concepts>',
    '<files><file>src/test-agent.ts</file></files>',
    `<sources>${sources(ids)}</sources>`,
    // doc2query: the questions this record answers, as a model writes them.
    `<questions><question>What did the scripted agent see in ${ids.length} events?</question><question>Which session did the test agent summarise?</question></questions>`,
    ...(memory ? [`<supersedes><record_id>${memory}</record_id></supersedes>`] : []),
    '</memory_record>',
    '<memory_record type="discovery">',
    '<title>Test agent discovery</title>',
    '<summary>Cites only the first event of the batch.</summary>',
    `<sources>${sources(ids.slice(0, 1))}</sources>`,
    '</memory_record>',
    '<memory_record type="not-a-type"><title>dropped</title><summary>unknown type</summary></memory_record>',
  ].join('\n');
}

function flakyReply(prompt: string): string {
  const state = process.env.KIRO_LEARN_TEST_AGENT_STATE;
  const fails = Number(process.env.KIRO_LEARN_TEST_AGENT_FAILS ?? 1);
  if (!state) return recordsReply(prompt);
  let seen = 0;
  try {
    seen = Number(readFileSync(state, 'utf8')) || 0;
  } catch {}
  writeFileSync(state, String(seen + 1));
  return seen < fails ? 'I could not find anything in particular, sorry!' : recordsReply(prompt);
}

// Loading the SDK is most of this agent's start-up; the compile cache trims it on every run after the first.
enableCompileCache?.();
const { agent, methods, ndJsonStream, PROTOCOL_VERSION } = await import('@agentclientprotocol/sdk');

const never = () => new Promise<never>(() => {});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const app = agent({ name: 'kiro-learn-test-agent' })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {},
    agentInfo: { name: 'kiro-learn-test-agent', version: '1.0.0' },
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `test-${process.pid}` }))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const prompt = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const say = (text: string) =>
      client.notify(methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
      });
    let reply: string;
    switch (mode) {
      case 'hang':
      case 'stubborn':
        return never();
      case 'crash':
        await say('<memory_record type="discovery"><title>half');
        process.stderr.write('test agent: crashing mid-turn (mode crash)\n');
        return process.exit(70);
      case 'skip':
        reply = '<skip/>';
        break;
      case 'garbage':
        reply =
          "Sure! Here's what happened in this session: the user fixed a bug. Let me know if you need anything else.";
        break;
      case 'flaky':
        reply = flakyReply(prompt);
        break;
      case 'script':
        reply = scriptReply();
        break;
      case 'slow':
        await sleep(Number(process.env.KIRO_LEARN_TEST_AGENT_DELAY_MS ?? 2000));
        reply = recordsReply(prompt);
        break;
      default:
        reply = recordsReply(prompt);
    }
    if (mode === 'instant') await say(reply);
    else {
      // Stream in pieces that split tags, as real models do.
      const size = Math.ceil(reply.length / 4);
      for (let i = 0; i < reply.length; i += size) await say(reply.slice(i, i + size));
    }
    return { stopReason: 'end_turn' as const };
  });

const connection = app.connect(
  ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  ),
);
await connection.closed;
if (mode !== 'stubborn') process.exit(0);

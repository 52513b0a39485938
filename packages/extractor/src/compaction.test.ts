import { type Event, newEventId } from '@kiro-learn/schema';
import { describe, expect, it } from 'vitest';
import { buildCompactionPrompt, parseCompactionReply } from './compaction.js';
import { buildPrompt } from './prompt.js';

const note = (content: string): Event => ({
  event_id: newEventId(),
  session_id: 's',
  actor_id: 'a',
  namespace: '/actor/a/project/p/',
  schema_version: 1,
  kind: 'note',
  body: { type: 'text', content },
  valid_time: '2025-01-01T00:00:00.000Z',
  source: { surface: 'api', version: '1', client_id: 'c' },
});

describe('compaction summarizer prompt and reply', () => {
  it('frames the previous summary, the facts and the events, all escaped', () => {
    const e = note('use <T> & more');
    const prompt = buildCompactionPrompt(
      {
        namespace: e.namespace,
        mode: 'incremental',
        previousSummary: 'Earlier: a & b',
        facts: { 'db<1>': 'sqlite & wal' },
        events: [e],
      },
      1000,
    );
    expect(prompt).toContain('<compaction_request mode="incremental">');
    expect(prompt).toContain('<previous_summary>Earlier: a &amp; b</previous_summary>');
    expect(prompt).toContain('<fact key="db&lt;1&gt;">sqlite &amp; wal</fact>');
    expect(prompt).toContain(`<note event_id="${e.event_id}"`);
    expect(prompt).toContain('use &lt;T&gt; &amp; more');
  });

  it('reads facts, obsolete keys and the title; anything without a summary is garbage', () => {
    expect(
      parseCompactionReply(
        'Here:\n<compaction_summary><title>T</title><summary>Moved to SQLite &amp; WAL.</summary><facts><fact key="database">sqlite</fact><fact key="">x</fact></facts><obsolete><key>port</key></obsolete></compaction_summary>',
      ),
    ).toEqual({
      kind: 'summary',
      reply: {
        title: 'T',
        summary: 'Moved to SQLite & WAL.',
        facts: { database: 'sqlite' },
        obsolete: ['port'],
      },
    });
    expect(parseCompactionReply('Sure! All good.').kind).toBe('garbage');
    expect(parseCompactionReply('<compaction_summary><facts/></compaction_summary>').kind).toBe(
      'garbage',
    );
  });

  it('puts the compaction summary before the events of an extraction prompt', () => {
    const prompt = buildPrompt('<events></events>', 'Summary of earlier events: a < b');
    expect(prompt).toContain(
      '<compaction_summary>Summary of earlier events: a &lt; b</compaction_summary>\n<events></events>',
    );
    expect(buildPrompt('<events></events>')).not.toContain('<compaction_summary>S');
  });
});

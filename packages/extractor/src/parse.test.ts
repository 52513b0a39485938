import { describe, expect, it } from 'vitest';
import { parseReply } from './parse.js';

describe('parseReply', () => {
  it('reads every field of a record block and unescapes entities', () => {
    const reply = `Here you go:
<memory_record type="error">
  <title>Fix &lt;Router&gt; &amp; raw body</title>
  <summary>express.json() broke &quot;signatures&quot; &#39;here&#39;</summary>
  <facts><fact>one</fact><fact> two </fact></facts>
  <concepts><concept>stripe</concept></concepts>
  <files><file>src/a.ts</file></files>
  <sources><event_id>01AAAAAAAAAAAAAAAAAAAAAAAA</event_id></sources>
</memory_record>`;
    expect(parseReply(reply)).toEqual({
      kind: 'records',
      dropped: 0,
      drafts: [
        {
          type: 'error',
          title: 'Fix <Router> & raw body',
          summary: `express.json() broke "signatures" 'here'`,
          facts: ['one', 'two'],
          concepts: ['stripe'],
          files: ['src/a.ts'],
          sources: ['01AAAAAAAAAAAAAAAAAAAAAAAA'],
        },
      ],
    });
  });

  it('drops blocks with an unknown type or no title or summary, and counts them', () => {
    const reply = [
      '<memory_record type="opinion"><title>t</title><summary>s</summary></memory_record>',
      '<memory_record type="decision"><title></title><summary>s</summary></memory_record>',
      '<memory_record type="decision"><title>kept</title><summary>s</summary><facts>- a\n- b</facts></memory_record>',
    ].join('\n');
    const parsed = parseReply(reply);
    expect(parsed.kind === 'records' && parsed.dropped).toBe(2);
    expect(
      parsed.kind === 'records' && parsed.drafts.map((draft) => [draft.title, draft.facts]),
    ).toEqual([['kept', ['a', 'b']]]);
  });

  it('treats <skip/> and an empty reply as nothing to remember', () => {
    for (const reply of ['<skip/>', '  <skip />\n', '```xml\n<skip/>\n```', '', '   ']) {
      expect(parseReply(reply)).toEqual({ kind: 'skip' });
    }
  });

  it('calls conversation, and blocks that are all invalid, garbage', () => {
    expect(parseReply('Sure! The user fixed a bug.').kind).toBe('garbage');
    expect(parseReply('<memory_record type="x"><title>a</title></memory_record>').kind).toBe(
      'garbage',
    );
    expect(parseReply('<memory_record type="error"><title>never closed').kind).toBe('garbage');
  });
});

/** The fields of a memory record that session-start context shows. */
export interface ContextRecord {
  /** Record title. */
  title: string;
  /** Record summary. */
  summary: string;
  /** Record facts. */
  facts?: string[];
}

/**
 * Session-start context in the retrieval format of DESIGN.md §3 (the collector formats
 * prompt context itself); empty when there is nothing to show.
 */
export function formatContext(records: readonly ContextRecord[]): string {
  if (records.length === 0) return '';
  const blocks = records.map((record) => {
    const facts = (record.facts ?? []).map((fact) => `- ${fact}`).join('\n');
    return `### ${record.title}\n\n${record.summary}${facts ? `\n\n${facts}` : ''}`;
  });
  return `## Prior observations from kiro-learn\n\n${blocks.join('\n\n')}\n`;
}

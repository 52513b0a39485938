import { resolve } from 'node:path';
import { formatContext } from '@kiro-learn/retrieval';
import type { SearchHit } from '@kiro-learn/schema';
import { projectIdentity } from '@kiro-learn/schema/node';
import { api, cliAddress, probe } from '../lifecycle/client.js';
import { line, parseCommandArgs } from './args.js';
import type { Command } from './types.js';

export const search: Command = {
  name: 'search',
  summary: "search this project's memory the way the agent does",
  usage: `kiro-learn search <query> [--project DIR] [--limit N] [--json]

Prints the context the agent would get for <query> in the project at DIR (default: the
current directory). Needs a running collector.
  --project DIR   project directory (its namespace comes from the same identity the hooks use)
  --limit N       most records (default 10)
  --json          print the records as JSON`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      'search',
      args,
      {
        project: { type: 'string' },
        limit: { type: 'string', default: '10' },
        json: { type: 'boolean' },
      },
      true,
    );
    const query = positionals.join(' ').trim();
    if (!query) {
      line(
        io.stderr,
        'kiro-learn search: say what to search for, e.g. kiro-learn search "stripe webhook"',
      );
      return 2;
    }
    const limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      line(io.stderr, `kiro-learn search: --limit must be 1-100, got ${values.limit}`);
      return 2;
    }
    const address = cliAddress(io.env);
    if (!(await probe(address)).ok) {
      line(
        io.stderr,
        `kiro-learn: the collector is not running at ${address.baseUrl}; start it with: kiro-learn start`,
      );
      return 1;
    }
    const { namespace } = projectIdentity(resolve(io.cwd, values.project ?? '.'), { env: io.env });
    const params = new URLSearchParams({ namespace, query, limit: String(limit) });
    const records = await api<SearchHit[]>(address, `/v1/memories/search?${params}`);
    if (values.json) line(io.stdout, JSON.stringify(records, null, 2));
    else if (records.length === 0) line(io.stdout, `no memories match in ${namespace}`);
    // The retriever's default context budget: what the agent would read.
    else
      io.stdout.write(
        `${
          formatContext(records, {
            tokens: 1500,
            summaryTokens: 400,
            // A teammate's record (team memory) reads `### <title> — from <member>`.
            author: (record) => (record as SearchHit).author,
          }).context
        }\n`,
      );
    return 0;
  },
};

import type { EvalRecord } from './records.ts';

/**
 * Records that restate others, as real memory has them, each labelled with the record it
 * repeats (`restates`): a duplicate group is one piece of knowledge, so an eval of the
 * injected context counts a group once. Three sources:
 * - one turn written by the built-in extractor before it learned not to repeat itself: a
 *   turn summary, an error and a discovery that all carry the failing test, the error
 *   message, the fix and the agent's explanation (generated below in its exact wording);
 * - an extraction retried after a crash, so the model wrote nearly the same record twice;
 * - an agent saving over MCP, in its own words, what the extractor also recorded.
 */

interface FailedTurn {
  project: EvalRecord['project'];
  /** Key prefix: `<key>-error`, `<key>-summary`, `<key>-discovery`. */
  key: string;
  daysAgo: number;
  request: string;
  answer: string;
  read: string;
  command: string;
  failedCounts: string;
  passedCounts: string;
  test: string;
  message: string;
  edit: { file: string; purpose: string; before: string; after: string };
  runner: string;
}

/** The built-in extractor's old records for a turn whose tests failed, were fixed and passed. */
function oldBuiltinTurn(t: FailedTurn): EvalRecord[] {
  const cmd = `\`${t.command}\``;
  const failedRun = `${cmd} failed (exit 1; ${t.failedCounts})`;
  const passedRun = `${cmd} passed (${t.passedCounts})`;
  const edit = `${t.edit.file} (${t.edit.purpose}): replaced \`${t.edit.before}\` with \`${t.edit.after}\``;
  const name = /\b([A-Z]\w*(?:Error|Exception))\b/.exec(t.message)?.[1] ?? 'failure';
  const testFile = /^([\w./-]+\.\w+)/.exec(t.test)?.[1];
  const headline = t.request.slice(0, t.request.search(/[.?!](\s|$)/) + 1 || undefined);
  const firstSentence = t.answer.slice(0, t.answer.search(/[.?!](\s|$)/) + 1 || undefined);
  const base = { project: t.project, daysAgo: t.daysAgo };
  return [
    {
      ...base,
      key: `${t.key}-error`,
      type: 'error',
      title: `${name} in ${t.test} — fixed in ${t.edit.file}`,
      summary: `${failedRun}. Failing: ${t.test}. Error: ${t.message} Fixed by editing ${edit}. Afterwards ${passedRun}. Agent's explanation: ${t.answer}`,
      facts: [
        `Command: ${t.command}`,
        failedRun,
        `Failing test: ${t.test}`,
        `Error: ${t.message}`,
        `Fix: ${edit}`,
        `After the fix: ${passedRun}`,
      ],
      concepts: [name, 'fixed', 'failing-test'],
      files: [...(testFile ? [testFile] : []), t.edit.file],
    },
    {
      ...base,
      key: `${t.key}-summary`,
      type: 'session_summary',
      restates: `${t.key}-error`,
      title: `${headline.replace(/[.!?]+$/, '')} — fixed ${name} in ${t.edit.file}`,
      summary: [
        `Request: ${t.request}`,
        `Outcome: ${t.answer}`,
        `Read: ${t.read}.`,
        `Modified: ${edit}.`,
        `Ran: ${failedRun}; then ${passedRun}.`,
        `Error: ${t.message} — fixed by editing ${t.edit.file}.`,
      ].join('\n'),
      facts: [
        `User asked: ${t.request}`,
        `Read: ${t.read}`,
        `Modified ${edit}`,
        failedRun,
        passedRun,
        `Failing test: ${t.test}`,
        `Error: ${t.message}`,
      ],
      concepts: [t.runner, name, 'tests', 'bug-fix'],
      files: [t.edit.file, t.read],
    },
    {
      ...base,
      key: `${t.key}-discovery`,
      type: 'discovery',
      restates: `${t.key}-error`,
      title: firstSentence,
      summary: `${t.answer}\n(While working on: ${t.request})`,
      facts: [],
      concepts: [t.runner, name, 'bug-fix'],
      files: [t.edit.file],
    },
  ];
}

const turns = [
  oldBuiltinTurn({
    project: 'shopfront',
    key: 'sf-cart-total',
    daysAgo: 6,
    request:
      'The cart page crashes with a 500 for some customers since this morning. Can you find out why?',
    answer:
      'Cart lines can outlive their product: a soft-deleted product is missing from the lookup map, so computing the total read priceCents of undefined. Lines whose product is gone are now skipped and shown as unavailable.',
    read: 'src/cart/total.ts',
    command: 'pnpm vitest run src/cart',
    failedCounts: '1 failed, 23 passed of 24',
    passedCounts: '24 passed of 24',
    test: 'src/cart/total.test.ts > totals a cart with a deleted product',
    message: "TypeError: Cannot read properties of undefined (reading 'priceCents')",
    edit: {
      file: 'src/cart/total.ts',
      purpose: 'Skip cart lines whose product was deleted',
      before: 'const price = products.get(line.productId).priceCents;',
      after: 'const product = products.get(line.productId); if (!product) continue;',
    },
    runner: 'vitest',
  }),
  oldBuiltinTurn({
    project: 'pipeline',
    key: 'pl-fx-unknown',
    daysAgo: 4,
    request:
      'The daily revenue DAG failed on convert_currency last night. What happened and can you fix it?',
    answer:
      'Croatia switched from HRK to EUR, so the ECB feed stopped publishing an HRK rate and the rates lookup raised KeyError for old HRK orders. Retired currencies now convert through their fixed euro conversion rate (7.5345 for HRK) from the retired_currencies seed.',
    read: 'pipeline/transform/currency.py',
    command: 'pytest tests/test_currency.py -q',
    failedCounts: '1 failed, 17 passed',
    passedCounts: '18 passed',
    test: 'tests/test_currency.py::test_convert_retired_currency',
    message: "KeyError: 'HRK'",
    edit: {
      file: 'pipeline/transform/currency.py',
      purpose: 'Convert retired currencies at their fixed euro rate',
      before: 'rate = rates[order.currency]',
      after: 'rate = rates.get(order.currency) or RETIRED_RATES[order.currency]',
    },
    runner: 'pytest',
  }),
  oldBuiltinTurn({
    project: 'ledger',
    key: 'lg-split-rounding',
    daysAgo: 3,
    request:
      'TestSplitFee is red on main after the fee change, please look at it. The ledger must stay balanced.',
    answer:
      'Splitting a fee three ways with integer division lost a minor unit, so the debit and credit sides differed by one cent and posting rejected the transfer as unbalanced. The remainder now goes to the first share, so the shares always add up to the fee.',
    read: 'internal/fees/split.go',
    command: 'go test ./internal/fees/...',
    failedCounts: '1 failed, 14 passed',
    passedCounts: '15 passed',
    test: 'TestSplitFee',
    message: 'ErrUnbalanced: debit 1000 != credit 999 (transfer not posted)',
    edit: {
      file: 'internal/fees/split.go',
      purpose: 'Give the rounding remainder to the first share',
      before: 'share := fee / int64(n)',
      after: 'share, rest := fee/int64(n), fee%int64(n)',
    },
    runner: 'go',
  }),
];

const again: EvalRecord[] = [
  {
    key: 'sf-pg-pool-again',
    project: 'shopfront',
    type: 'error',
    restates: 'sf-pg-pool',
    title: 'Connection pool exhausted during the load test',
    summary:
      "k6 load test at 200 VUs hit 'timeout exceeded when trying to connect' from pg. Pool max was 10 and a transaction in checkout held connections while awaiting Stripe. Moved the Stripe call outside the transaction and raised max to 20.",
    facts: [
      'Never await network calls inside db.transaction()',
      'PGPOOL_MAX env var controls the pool size',
    ],
    concepts: ['postgres', 'connection pool'],
    files: ['src/db/pool.ts', 'src/checkout/placeOrder.ts'],
    daysAgo: 12,
  },
  {
    key: 'pl-memory-again',
    project: 'pipeline',
    type: 'error',
    restates: 'pl-memory',
    title: 'pandas merge in the attribution job ran out of memory',
    summary:
      'The attribution job was OOM-killed merging two 30 GB frames. Rewrote it in DuckDB reading parquet directly; peak memory fell to 3 GB.',
    facts: ['duckdb.sql(...).df() is used only for the final small result'],
    concepts: ['pandas', 'duckdb', 'memory'],
    files: ['pipeline/transform/attribution.py'],
    daysAgo: 21,
  },
  {
    key: 'lg-account-lock-again',
    project: 'ledger',
    type: 'error',
    restates: 'lg-account-lock',
    title: 'Deadlock between opposite transfers',
    summary:
      'Transfers A to B and B to A at the same time deadlocked. Accounts are now locked in ascending id order before posting.',
    facts: ['Postgres reported deadlock detected, SQLSTATE 40P01', 'Found by the race test'],
    concepts: ['deadlock', 'locking'],
    files: ['internal/ledger/post.go'],
    daysAgo: 17,
  },
];

const savedOverMcp: EvalRecord[] = [
  {
    key: 'sf-stripe-webhook-mcp',
    project: 'shopfront',
    type: 'discovery',
    restates: 'sf-stripe-webhook',
    title: 'Stripe signature checks need the unparsed request body',
    summary:
      'constructEvent verifies the signature over the exact bytes Stripe sent, so any JSON body parser in front of the webhook route breaks it. Mount express.raw() on that route only.',
    facts: [],
    concepts: ['stripe', 'webhooks'],
    files: ['src/routes/webhooks/stripe.ts'],
    daysAgo: 32,
  },
  {
    key: 'lg-nil-pointer-mcp',
    project: 'ledger',
    type: 'pattern',
    restates: 'lg-nil-pointer',
    title: 'Read protobuf fields through the generated getters',
    summary:
      'Optional messages such as metadata may be nil on a request; the generated GetX() getters are nil-safe, direct field access panics.',
    facts: [],
    concepts: ['protobuf', 'nil pointer'],
    files: ['internal/api/transfers.go'],
    daysAgo: 8,
  },
];

/**
 * Look-alikes: records worded much like another but saying something new (a later incident
 * of the same failure, a decision revisited). Not duplicates: the repeat rule must keep them.
 */
const lookalikes: EvalRecord[] = [
  ...oldBuiltinTurn({
    project: 'shopfront',
    key: 'sf-cart-quantity',
    daysAgo: 2,
    request:
      'The cart page crashes with a 500 again, this time for carts restored from a saved link. Can you find out why?',
    answer:
      'Restored carts store quantities as null until the customer confirms them, so computing the total read quantity of null. Unconfirmed lines now count as quantity 1 and the page asks the customer to confirm.',
    read: 'src/cart/total.ts',
    command: 'pnpm vitest run src/cart',
    failedCounts: '1 failed, 24 passed of 25',
    passedCounts: '25 passed of 25',
    test: 'src/cart/total.test.ts > totals a restored cart',
    message: "TypeError: Cannot read properties of null (reading 'quantity')",
    edit: {
      file: 'src/cart/total.ts',
      purpose: 'Count unconfirmed restored lines as quantity 1',
      before: 'total += price * line.quantity;',
      after: 'total += price * (line.quantity ?? 1);',
    },
    runner: 'vitest',
  }),
  {
    key: 'sf-pg-pool-40',
    project: 'shopfront',
    type: 'error',
    title: 'Connection pool exhausted again under the 400 VU load test',
    summary:
      "k6 load test at 400 VUs hit 'timeout exceeded when trying to connect' from pg again. The Stripe call was already outside the transaction; this time the email enqueue held connections inside it. Moved the enqueue after commit and raised max to 40.",
    facts: ['Enqueue jobs after db.transaction() commits, never inside it'],
    concepts: ['postgres', 'connection pool', 'load testing'],
    files: ['src/db/pool.ts', 'src/checkout/placeOrder.ts'],
    daysAgo: 5,
  },
  {
    key: 'pl-memory-sessions',
    project: 'pipeline',
    type: 'error',
    title: 'pandas merge in the sessions job ran out of memory',
    summary:
      'The sessions job was OOM-killed merging two 12 GB frames. It needs a pandas UDF, so instead of DuckDB it now merges one day at a time; peak memory fell to 2 GB.',
    facts: ['Chunk by event_date when a job cannot move to DuckDB'],
    concepts: ['pandas', 'memory'],
    files: ['pipeline/transform/sessions.py'],
    daysAgo: 7,
  },
  {
    key: 'lg-hold-lock',
    project: 'ledger',
    type: 'error',
    title: 'Deadlock between hold capture and transfers',
    summary:
      'Capturing a hold and posting a transfer on the same account at the same time deadlocked. Holds are now locked together with their account, in ascending id order, before capture.',
    facts: ['Postgres reported deadlock detected, SQLSTATE 40P01'],
    concepts: ['deadlock', 'locking', 'holds'],
    files: ['internal/ledger/holds.go'],
    daysAgo: 4,
  },
];

/** Every record added for the repeat rule: restatements, and the look-alikes it must keep. */
export const DUPLICATES: readonly EvalRecord[] = [
  ...turns.flat(),
  ...again,
  ...savedOverMcp,
  ...lookalikes,
];

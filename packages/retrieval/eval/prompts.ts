import type { EvalRecord } from './records.ts';

/**
 * What a prompt tests: `stem` word variants, `field` answers found only in facts, files or
 * concepts, `chatty` long prompts with one telling word, `identifier` code names and
 * paths, `operator` FTS5 operator characters, `plain` a short everyday question,
 * `paraphrase` a question in other words than the record's, among records on the same topic.
 */
export type PromptKind =
  | 'stem'
  | 'field'
  | 'chatty'
  | 'identifier'
  | 'operator'
  | 'plain'
  | 'paraphrase';

export interface EvalPrompt {
  project: EvalRecord['project'];
  kind: PromptKind;
  prompt: string;
  /** Keys of the records that answer it (records restating one of them count as well). */
  relevant: string[];
}

type Row = [PromptKind, string, string[]];

/** The three records the old built-in extractor wrote for one failing-then-fixed turn. */
const turn = (key: string) => [`${key}-error`, `${key}-summary`, `${key}-discovery`];

const of =
  (project: EvalRecord['project']) =>
  (rows: Row[]): EvalPrompt[] =>
    rows.map(([kind, prompt, relevant]) => ({ project, kind, prompt, relevant }));

export const PROMPTS: readonly EvalPrompt[] = [
  ...of('shopfront')([
    [
      'stem',
      "the refresh tokens aren't rotating properly anymore, can you check",
      ['sf-jwt-rotate', 'sf-session-summary-1'],
    ],
    [
      'field',
      'where do we configure how many connections postgres gets',
      ['sf-pg-pool', 'sf-pg-pool-40'],
    ],
    ['identifier', 'createUser is letting duplicate emails through again', ['sf-createUser']],
    [
      'plain',
      'the cart page returns 500 for a customer again',
      [...turn('sf-cart-total'), ...turn('sf-cart-quantity')],
    ],
    ['identifier', 'TypeError reading priceCents in src/cart/total.ts', turn('sf-cart-total')],
    ['plain', 'postgres connection pool timeouts under load', ['sf-pg-pool', 'sf-pg-pool-40']],
    ['plain', 'the cart page crashes for restored carts, null quantity', turn('sf-cart-quantity')],
    [
      'plain',
      'why did the cart total crash last time',
      [...turn('sf-cart-total'), ...turn('sf-cart-quantity')],
    ],
    ['stem', 'pool exhausted again at 400 VUs, what did we change', ['sf-pg-pool-40']],
    ['identifier', 'rate_limit middleware returns 429 for pro plan users, why?', ['sf-rate-limit']],
    [
      'chatty',
      "ok so I was looking at the webhook handler earlier today and something weird is going on, stripe keeps telling us it can't find a matching signature even though the secret is definitely right, any idea what is going on here?",
      ['sf-stripe-webhook'],
    ],
    [
      'operator',
      'why does "Idempotency-Key" + retry charge the card twice?',
      ['sf-order-idempotency'],
    ],
    [
      'identifier',
      'fix the bug in src/cache/cached.ts where stale product data is served',
      ['sf-cache-product'],
    ],
    ['stem', 'tests are flaking in CI, the inventory ones mostly', ['sf-flaky-test']],
    ['field', 'what does formatMoney expect as input', ['sf-money']],
    [
      'chatty',
      "I'm going to add a new endpoint for gift cards. Before that, please remind me how we deal with amounts and rounding, because last time the invoices had discrepancies and I really don't want to repeat that",
      ['sf-money'],
    ],
    [
      'operator',
      "users can't log in after a password reset -- is it the argon2 rehash? (bcrypt*)",
      ['sf-password-hash'],
    ],
    ['stem', 'searching for misspelled product names returns nothing', ['sf-search-trgm']],
    ['plain', "docker image won't build on alpine", ['sf-docker-build']],
    ['identifier', 'where is decodeCursor defined', ['sf-pagination']],
    ['field', 'which env var holds the allowed origins?', ['sf-cors']],
    [
      'stem',
      'we oversold the last item again, two people bought it simultaneously',
      ['sf-inventory-lock'],
    ],
    ['operator', 'refunds: partial OR full? stripe.refunds.create({amount})', ['sf-refund']],
    [
      'chatty',
      'hey, quick one: the daily numbers for the store in new york look wrong for yesterday, some orders seem to be counted on the wrong day. what did we do about that last time?',
      ['sf-timezone'],
    ],
    [
      'identifier',
      'update loadtest/checkout.js to also hit the coupon endpoint',
      ['sf-session-summary-2', 'sf-coupon'],
    ],
    ['plain', 'how are emails sent? I need to add a shipping notification', ['sf-email-queue']],
    [
      'stem',
      'requests dropped when kubernetes shuts pods down during deploys',
      ['sf-graceful-shutdown'],
    ],
    ['plain', 'VAT for business customers in germany', ['sf-tax']],
    [
      'paraphrase',
      'the mobile app keeps logging people out after a while',
      ['sf-session-summary-1', 'sf-jwt-rotate'],
    ],
    [
      'paraphrase',
      'why is checkout so slow when lots of people order at once',
      ['sf-pg-pool', 'sf-session-summary-2'],
    ],
    ['paraphrase', 'can a customer get part of their money back for an order', ['sf-refund']],
    [
      'chatty',
      "I want to add discount codes for the black friday campaign, wait, do we already have something like that? don't want to build it twice",
      ['sf-coupon'],
    ],
    ['paraphrase', 'we need to stop scripts hammering the public API', ['sf-rate-limit']],
    ['paraphrase', 'what is the upload size limit for product photos', ['sf-image-upload']],
    ['identifier', "where's the SIGTERM handling", ['sf-graceful-shutdown']],
    ['field', 'where do new environment variables need to be documented', ['sf-env-config']],
    ['paraphrase', 'rows get skipped when paging through the orders list', ['sf-pagination']],
    ['plain', 'where is the ESLint config', ['sf-biome']],
    [
      'paraphrase',
      'the account page takes ages to load past orders',
      ['sf-orders-index', 'sf-n-plus-one'],
    ],
    [
      'identifier',
      'src/app.ts is getting messy, what ordering constraints do we have there?',
      ['sf-cors', 'sf-stripe-webhook'],
    ],
    [
      'identifier',
      'anything I should know before touching placeOrder.ts?',
      ['sf-pg-pool', 'sf-card-declined'],
    ],
    ['identifier', 'anything to know about src/middleware/csrf.ts', ['sf-csrf']],
    ['identifier', 'handleStripeWebhook throws on the signature check', ['sf-stripe-webhook']],
  ]),
  ...of('pipeline')([
    ['identifier', 'ArrowInvalid schema at index 3 again on load_events', ['pl-parquet-schema']],
    ['stem', 'how many times does a task get retried before it fails', ['pl-airflow-retries']],
    [
      'chatty',
      'so the backfill container died with some credentials error from botocore I think, it worked fine locally, what did we change last time this happened?',
      ['pl-s3-credentials'],
    ],
    ['field', 'what share of raw events are duplicates', ['pl-dedupe']],
    ['identifier', 'fct_sessions full refresh command?', ['pl-dbt-incremental']],
    ['stem', 'the merging step keeps running out of memory', ['pl-memory', 'pl-memory-sessions']],
    [
      'operator',
      'expectation suite failed: "events" AND NOT null -> what happens downstream?',
      ['pl-great-expectations'],
    ],
    ['field', "what's the slack connection id for alerts", ['pl-slack-alerts']],
    [
      'stem',
      'backfilling march again, which flags do I need',
      ['pl-backfill', 'pl-session-summary-1'],
    ],
    ['plain', 'where is the PII salt kept', ['pl-pii']],
    [
      'chatty',
      "finance is complaining that the snowflake bill went way up this month, didn't we do something about the warehouse running all the time? I can't remember what we changed",
      ['pl-snowflake-cost'],
    ],
    ['identifier', 'UnicodeDecodeError on byte 0x92 in the partner file', ['pl-csv-encoding']],
    ['plain', 'does the consumer commit offsets before writing to s3?', ['pl-kafka-consumer']],
    ['stem', 'athena queries are slow, lots of tiny files', ['pl-small-files']],
    ['plain', 'how do we convert revenue to euros', ['pl-currency']],
    ['plain', 'add a new partner DAG from yaml', ['pl-dag-factory']],
    ['identifier', 'dags/gdpr_delete.py is missing the new events model', ['pl-gdpr-delete']],
    ['operator', 'ads api 429 (Too Many Requests) -- do we honour retry-after?', ['pl-retry-api']],
    [
      'chatty',
      'the geo report totals are lower than the user count, it looks like some users just disappear from it, maybe the ones where we never got a country?',
      ['pl-null-country'],
    ],
    ['identifier', 'ExternalTaskSensor stuck in the reports dag', ['pl-sensor-timeout']],
    [
      'paraphrase',
      'the attribution job keeps getting killed',
      ['pl-memory', 'pl-session-summary-2'],
    ],
    ['paraphrase', 'events that arrive days later are missing from sessions', ['pl-late-events']],
    ['plain', 'how is a session defined', ['pl-sessionize']],
    [
      'chatty',
      'the data scientists pinged me saying their churn features broke after my change yesterday, what depends on what here?',
      ['pl-ml-features'],
    ],
    ['paraphrase', 'excel shows weird characters in the partner export', ['pl-csv-export']],
    ['plain', 'where do we store airflow connections', ['pl-secrets']],
    ['paraphrase', 'can I run the whole pipeline on my laptop', ['pl-local-dev']],
    ['field', "what's next after the march backfill", ['pl-session-summary-1']],
    [
      'chatty',
      "the revenue dag blew up overnight on the currency step, some KeyError for an old currency code I think, didn't we handle this already?",
      turn('pl-fx-unknown'),
    ],
    [
      'paraphrase',
      'how are orders in currencies that no longer exist converted',
      turn('pl-fx-unknown'),
    ],
    ['plain', 'sessions job OOM killed during the merge', ['pl-memory-sessions']],
    ['paraphrase', 'is it safe to rerun a load for the same day', ['pl-idempotent-loads']],
    [
      'paraphrase',
      "the numbers don't match the source system after a load",
      ['pl-row-count-check'],
    ],
    ['plain', 'how is the marketing channel computed', ['pl-utm']],
    [
      'identifier',
      'I need to change models/staging/stg_users.sql, what has bitten us there before?',
      ['pl-pii', 'pl-null-country'],
    ],
    ['identifier', 'why is dedupe_events keeping old rows', ['pl-dedupe']],
    [
      'identifier',
      'editing the default args in dags/common.py',
      ['pl-airflow-retries', 'pl-sensor-mode', 'pl-slack-alerts', 'pl-airflow-pools'],
    ],
  ]),
  ...of('ledger')([
    ['identifier', 'DeadlineExceeded on transfer calls again', ['lg-grpc-deadline']],
    ['stem', 'why do we write two entries per transfer', ['lg-double-entry']],
    ['plain', 'publishing transfer events to kafka reliably', ['lg-kafka-outbox']],
    [
      'chatty',
      'CI is red, go test with the race detector complains about concurrent map writes somewhere in the balance code, can you take a look and remind me what we did before',
      ['lg-race'],
    ],
    ['stem', 'which replica runs the migrations at startup', ['lg-migrations']],
    ['field', 'what makes a retried transfer request safe?', ['lg-idempotency']],
    ['plain', 'JPY amounts are shown with decimals', ['lg-decimal']],
    ['identifier', 'why strconv.AppendInt in the export?', ['lg-pprof']],
    ['stem', 'goroutines leaking after clients disconnected', ['lg-context-cancel']],
    [
      'operator',
      'otel spans missing for db calls (otelsql?) "OTEL_EXPORTER_OTLP_ENDPOINT"',
      ['lg-otel'],
    ],
    ['identifier', 'SQLSTATE 40001 retries in retryTx', ['lg-serializable']],
    ['stem', 'do authorizations reduce the available balance?', ['lg-holds']],
    ['field', 'partial capture, where did we leave it', ['lg-session-summary-1']],
    ['identifier', 'ErrInsufficientFunds maps to which grpc code', ['lg-grpc-errors']],
    [
      'stem',
      'deadlocking transfers between two accounts',
      ['lg-account-lock', 'lg-session-summary-2'],
    ],
    ['identifier', 'camt.053 import failing to match lines', ['lg-reconciliation']],
    ['plain', 'buf breaking check failed in CI', ['lg-api-versioning']],
    [
      'operator',
      'balance read slow for busy accounts -- snapshot* / entries^2',
      ['lg-balance-snapshot'],
    ],
    [
      'chatty',
      'hmm, the fuzzer found something again I think, it panics on some weird input to the amount parser, what was the last crash about and how did we fix it?',
      ['lg-fuzz'],
    ],
    ['identifier', 'nil pointer panic in CreateTransfer', ['lg-nil-pointer']],
    ['identifier', 'TestSplitFee fails with ErrUnbalanced', turn('lg-split-rounding')],
    ['plain', 'deadlock when capturing a hold', ['lg-hold-lock']],
    ['paraphrase', "the fee shares don't add up to the fee", turn('lg-split-rounding')],
    ['plain', 'token bucket settings per client', ['lg-rate-limit']],
    ['plain', 'how do services authenticate each other', ['lg-mtls']],
    ['paraphrase', 'can an account go negative with concurrent transfers', ['lg-serializable']],
    ['plain', 'where do I add a new environment variable', ['lg-config']],
    [
      'paraphrase',
      'does the relay publish duplicates to kafka after a restart',
      ['lg-kafka-outbox'],
    ],
    ['paraphrase', 'how do we fix a wrong entry', ['lg-audit']],
    ['plain', 'how much can a basic account send per day', ['lg-limits']],
    ['plain', 'in what order do our ids sort', ['lg-uuid']],
    ['paraphrase', 'the service crashes when metadata is empty', ['lg-nil-pointer']],
    ['field', "what's left to do on holds", ['lg-session-summary-1']],
    ['field', 'where is the Dockerfile', ['lg-ko']],
    ['plain', 'monthly statement PDF generation', ['lg-statement-pdf']],
    ['paraphrase', "traces don't show the database calls", ['lg-otel']],
    [
      'identifier',
      'about to refactor internal/ledger/post.go, what should I keep in mind',
      ['lg-double-entry', 'lg-account-lock'],
    ],
    ['identifier', 'cmd/ledgerd/main.go start-up order', ['lg-migrations', 'lg-graceful']],
    ['identifier', 'should postTransferEntries lock the accounts first?', ['lg-account-lock']],
  ]),
];

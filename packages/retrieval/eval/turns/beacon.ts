import { moreRecords } from './more.ts';
import { prompts, sessions } from './set.ts';

/** On-call chat for an analytics stack: Kafka ingest, ClickHouse, a Grafana board. */
export const BEACON_RECORDS = [
  ...moreRecords('beacon'),
  ...sessions('beacon', [
    {
      id: 'bc-s1',
      daysAgo: 48,
      turns: [
        {
          ask: 'consumer lag on the events topic is at 2 million and climbing',
          reply:
            'The ingest consumers are healthy but only 6 of 24 partitions have a consumer: the group has 6 pods and max.poll.records 500 makes each poll take 9 s of inserts.',
          key: 'bc-lag-cause',
        },
        {
          ask: 'scale it?',
          reply:
            'Scaled the ingest deployment to 12 pods and switched inserts to batches of 50,000 rows every 2 s. Lag back to zero in 25 minutes.',
          files: ['k8s/ingest/deployment.yaml', 'ingest/writer.py'],
          key: 'bc-lag-fix',
        },
        {
          ask: 'should it autoscale',
          reply:
            'KEDA with the Kafka scaler on consumer lag: 4 to 24 pods, one per partition at most, scale up at 50,000 messages of lag.',
          files: ['k8s/ingest/scaledobject.yaml'],
          key: 'bc-keda',
        },
      ],
    },
    {
      id: 'bc-s2',
      daysAgo: 34,
      turns: [
        {
          ask: 'clickhouse says too many parts',
          reply:
            'DB::Exception: Too many parts (300). Merges are slower than inserts: since the autoscaling, 24 pods each insert small batches every 2 s.',
          key: 'bc-parts-error',
        },
        {
          ask: 'what can we do',
          reply:
            'Fewer, larger inserts: either a Buffer table in front of events, or async_insert=1 with wait_for_async_insert=1 so the server batches for us.',
          key: 'bc-parts-options',
        },
        {
          ask: 'second one',
          reply:
            'Inserts now set async_insert=1, wait_for_async_insert=1, async_insert_busy_timeout_ms=1000. Parts per partition dropped from 300 to about 20.',
          files: ['ingest/writer.py'],
          key: 'bc-async-insert',
        },
      ],
    },
    {
      id: 'bc-s3',
      daysAgo: 23,
      turns: [
        {
          ask: 'the daily active users panel shows a dip every night at 1am',
          reply:
            'The panel groups by toDate(ts) in UTC but the business day is in America/New_York, so the day boundary falls in the evening traffic.',
          key: 'bc-dau-cause',
        },
        {
          ask: 'fix the query',
          reply:
            "The panel now uses toDate(ts, 'America/New_York') and the dashboard variable $tz defaults to New York.",
          files: ['grafana/dashboards/product.json'],
          key: 'bc-dau-fix',
        },
        {
          ask: 'is the materialized view wrong too',
          reply:
            'Yes: daily_active_mv used UTC as well. Rebuilt it with the timezone; backfilled 400 days with INSERT … SELECT in 30-day chunks overnight.',
          files: ['clickhouse/migrations/031_daily_active_tz.sql'],
          key: 'bc-mv-rebuild',
        },
      ],
    },
    {
      id: 'bc-s4',
      daysAgo: 14,
      turns: [
        {
          ask: 'disk on clickhouse-2 is at 91%',
          reply:
            'The raw events table keeps everything; 78% of the disk is raw events older than 90 days, which nobody queries.',
          key: 'bc-disk-cause',
        },
        {
          ask: 'what retention do we want',
          reply:
            'Product asked for 13 months of aggregates and 90 days of raw events. A TTL on events with a move to the S3 disk after 30 days keeps local disk small.',
          key: 'bc-retention-policy',
        },
        {
          ask: 'apply it',
          reply:
            "ALTER TABLE events MODIFY TTL ts + INTERVAL 30 DAY TO VOLUME 's3cold', ts + INTERVAL 90 DAY DELETE; disk went from 91% to 38% after the merge.",
          files: ['clickhouse/migrations/034_events_ttl.sql'],
          key: 'bc-ttl',
        },
      ],
    },
    {
      id: 'bc-s5',
      daysAgo: 6,
      turns: [
        {
          ask: 'lag alert again',
          reply:
            'Not capacity this time: one partition is stuck on a poison message, a 14 MB event that exceeds max.message.bytes on the dead-letter producer.',
          key: 'bc-poison',
        },
        {
          ask: 'what do we do with it',
          reply:
            'Skipped offset 88120433 on partition 7 after saving the payload to s3://beacon-quarantine/; the producer now rejects events over 1 MB at the edge.',
          files: ['collector/limits.go'],
          key: 'bc-poison-fix',
        },
        {
          ask: 'who was on call',
          reply:
            'Priya was primary this week, Tomasz secondary; the rotation is in PagerDuty schedule BEACON-ONCALL.',
          key: 'bc-oncall',
        },
      ],
    },
    {
      id: 'bc-s6',
      daysAgo: 2,
      turns: [
        {
          ask: 'too many parts again??',
          reply:
            'No, this is a different table: the sessions table gets single-row inserts from the sessionizer, which does not use async inserts.',
          key: 'bc-parts-again',
        },
        {
          ask: 'same fix then',
          reply: 'The sessionizer now uses async_insert as well; parts on sessions are down to 15.',
          files: ['sessionizer/sink.py'],
          key: 'bc-parts-again-fix',
        },
      ],
    },
  ]),
];

export const BEACON_PROMPTS = prompts('beacon', [
  [['paraphrase'], 'why was ingest falling behind the kafka topic', ['bc-lag-cause']],
  [['reply', 'exact'], 'how many ingest pods and what insert batch size', ['bc-lag-fix']],
  [['reply'], 'how does the ingest deployment autoscale', ['bc-keda']],
  [['exact', 'sibling'], 'DB::Exception: Too many parts (300)', ['bc-parts-error']],
  [['reply', 'exact'], 'which async_insert settings does the writer use', ['bc-async-insert']],
  [
    ['reply', 'paraphrase'],
    'why did we not put a Buffer table in front of events',
    ['bc-parts-options', 'bc-async-insert'],
  ],
  [['paraphrase'], 'why does the DAU chart dip overnight', ['bc-dau-cause']],
  [['reply', 'exact'], 'what timezone does the product dashboard use', ['bc-dau-fix']],
  [['reply'], 'did we backfill the daily active view', ['bc-mv-rebuild']],
  [['paraphrase'], 'what was filling up the disk on the second clickhouse node', ['bc-disk-cause']],
  [['reply'], 'how long do we keep raw events', ['bc-retention-policy', 'bc-ttl']],
  [['reply', 'exact'], 'what TTL is on the events table', ['bc-ttl']],
  [['reply', 'paraphrase'], 'which offset did we skip for the huge message', ['bc-poison-fix']],
  [
    ['reply', 'date'],
    'what did we do about the stuck partition last week',
    ['bc-poison-fix', 'bc-poison'],
  ],
  [['reply'], 'who was on call for the poison message incident', ['bc-oncall']],
  [
    ['sibling', 'date', 'reply'],
    'which table had too many parts two days ago and how was it fixed',
    ['bc-parts-again', 'bc-parts-again-fix'],
  ],
  [
    ['reply', 'paraphrase'],
    'what is the largest event the producer accepts now',
    ['bc-poison-fix'],
  ],
]);

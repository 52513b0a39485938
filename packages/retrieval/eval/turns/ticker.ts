import { moreRecords } from './more.ts';
import { prompts, sessions } from './set.ts';

/** A Go service that streams market prices to browsers over websockets. */
export const TICKER_RECORDS = [
  ...moreRecords('ticker'),
  ...sessions('ticker', [
    {
      id: 'tk-s1',
      daysAgo: 41,
      turns: [
        {
          ask: 'the price feed websocket drops every few minutes for some users, any idea why?',
          reply:
            'The AWS load balancer closes connections idle for 60 seconds, and a quiet symbol can go longer than that between ticks, so the socket gets cut.',
          key: 'tk-idle-cause',
        },
        {
          ask: 'what should we do about it?',
          reply:
            'Send a ping frame every 20 seconds from the server and reset the read deadline on every pong. I added a pinger goroutine per connection in hub.go.',
          files: ['internal/feed/hub.go'],
          key: 'tk-idle-fix',
        },
        {
          ask: 'ok and the client side?',
          reply:
            'Browsers answer pings by themselves, nothing to change there. The reconnect logic in the dashboard still waits 30 s before retrying, which is what users noticed.',
          key: 'tk-client-reconnect',
        },
        {
          ask: 'make that faster',
          reply:
            'Reconnect now starts at 500 ms and doubles up to 10 s with jitter, reset after a successful open.',
          files: ['web/src/feed/socket.ts'],
          key: 'tk-backoff',
        },
        {
          ask: 'run the tests',
          reply: 'All green: 84 passed.',
          ran: ['go test ./... passed'],
        },
      ],
    },
    {
      id: 'tk-s2',
      daysAgo: 33,
      turns: [
        {
          ask: 'we need to pick a message format for the feed, json is getting heavy',
          reply:
            'Measured on a day of ticks: JSON averages 212 bytes per update, MessagePack 118, a hand-rolled binary frame 41. Protobuf lands at 52 but needs the schema shipped to the browser.',
          key: 'tk-format-options',
        },
        {
          ask: 'which one would you go with?',
          reply:
            'The binary frame: fixed 41 bytes, decoding is a DataView read, and we control both ends. Keep JSON behind ?format=json for debugging.',
          key: 'tk-format-choice',
        },
        {
          ask: 'do it',
          reply:
            'Encoder in internal/wire/frame.go writes symbol id (u16), price (i64 fixed-point, 8 decimals), size (u32), timestamp (u64 ns), flags (u8). Decoder in web/src/feed/frame.ts.',
          files: ['internal/wire/frame.go', 'web/src/feed/frame.ts'],
          key: 'tk-frame-layout',
        },
        {
          ask: 'wait, why fixed point and not a float?',
          reply:
            'A float64 turns 0.1 + 0.2 into 0.30000000000000004, and prices must compare exactly. Fixed-point with 8 decimals covers every venue we take.',
          key: 'tk-fixed-point',
        },
        { ask: 'fine', reply: 'Committed as "binary feed frames".', ran: ['git commit passed'] },
      ],
    },
    {
      id: 'tk-s3',
      daysAgo: 26,
      turns: [
        { ask: 'memory keeps growing on the feed pods' },
        {
          ask: 'can you look at the heap profile I put in /tmp/heap.out',
          reply:
            'Most retained memory is in per-connection send buffers: slow clients never drain, and each buffer grows without bound.',
          files: ['/tmp/heap.out'],
          key: 'tk-leak-cause',
        },
        {
          ask: 'how do other people handle that?',
          reply:
            'Usual answer: a bounded queue per client and drop the client when it overflows. With a price feed you can also coalesce: keep only the latest price per symbol while the client is behind.',
          key: 'tk-slow-options',
        },
        {
          ask: 'coalescing sounds right, go',
          reply:
            'Each connection now keeps a map of pending latest frames per symbol and a dirty list; the writer drains it. A client more than 5 s behind is disconnected with close code 4008.',
          files: ['internal/feed/conn.go'],
          key: 'tk-coalesce',
        },
        {
          ask: 'does that break anything for the charts?',
          reply:
            'Charts that draw every tick would miss intermediate prices for a lagging client; the candle builder runs server-side, so candles stay exact.',
          key: 'tk-coalesce-charts',
        },
      ],
    },
    {
      id: 'tk-s4',
      daysAgo: 12,
      turns: [
        {
          ask: 'the staging deploy failed',
          reply:
            'The readiness probe hit /healthz before the symbol table loaded, got a 503 for 40 s and Kubernetes gave up after 3 failures.',
          files: ['deploy/k8s/feed.yaml'],
          key: 'tk-probe-cause',
        },
        {
          ask: 'fix it',
          reply:
            'Gave the readiness probe initialDelaySeconds 15 and failureThreshold 12, and split /healthz (liveness) from /readyz (symbols loaded).',
          files: ['deploy/k8s/feed.yaml', 'cmd/feed/main.go'],
          key: 'tk-probe-fix',
        },
        {
          ask: 'how long does the symbol table take to load now?',
          reply:
            'About 35 seconds: 48,000 symbols from the reference data API, paged 500 at a time.',
          key: 'tk-symbol-load',
        },
        {
          ask: 'can we cache it?',
          reply:
            'Cached to a gob file on the pod volume with a 6 hour TTL; cold start is 35 s, warm start under 1 s.',
          files: ['internal/refdata/cache.go'],
          key: 'tk-symbol-cache',
        },
      ],
    },
    {
      id: 'tk-s5',
      daysAgo: 5,
      turns: [
        {
          ask: 'someone asked whether we can support crypto pairs',
          reply:
            'The frame has a u16 symbol id and prices with 8 decimals, so pairs fit, but some tokens trade below 1e-8. We would need 12 decimals for those.',
          key: 'tk-crypto-decimals',
        },
        {
          ask: 'what would that cost?',
          reply:
            'Going to 12 decimals caps i64 prices at 9.2 million, fine for everything but a few index levels. The flags byte has a spare bit we could use to mark 12-decimal symbols instead.',
          key: 'tk-crypto-cost',
        },
        {
          ask: 'let us use the flag bit',
          reply:
            'Bit 3 of flags now means the price has 12 decimals; encoder and decoder updated, old clients ignore the bit and would show a wrong price, so the version byte in the hello message went to 2.',
          files: ['internal/wire/frame.go', 'web/src/feed/frame.ts'],
          key: 'tk-crypto-flag',
        },
      ],
    },
    {
      id: 'tk-s6',
      daysAgo: 2,
      turns: [
        {
          ask: 'the feed drops again for some users, same as before?',
          reply:
            'No, different: this time the close code is 4008, the slow-client cutoff. Those users are on hotel wifi with 2 to 3 s of lag spikes.',
          key: 'tk-drop-again',
        },
        {
          ask: 'raise it?',
          reply:
            'Raised the slow-client cutoff from 5 s to 15 s behind; memory per lagging client stays bounded by the per-symbol map.',
          files: ['internal/feed/conn.go'],
          key: 'tk-cutoff-raise',
        },
        {
          ask: 'also who owns the dashboard repo these days?',
          reply: 'CODEOWNERS lists @mira-k for web/ and @feed-team for everything else.',
          files: ['CODEOWNERS'],
          key: 'tk-owners',
        },
      ],
    },
  ]),
];

export const TICKER_PROMPTS = prompts('ticker', [
  [
    ['reply', 'paraphrase'],
    'how do we stop the load balancer killing quiet connections?',
    ['tk-idle-fix'],
  ],
  [
    ['paraphrase'],
    'why were price stream connections being cut off every minute or so',
    ['tk-idle-cause'],
  ],
  [['reply'], 'how fast does the dashboard retry after the socket closes?', ['tk-backoff']],
  [['reply', 'exact'], 'what is the byte layout of a binary feed frame', ['tk-frame-layout']],
  [
    ['reply'],
    'which wire format did we settle on for the price feed and why',
    ['tk-format-choice'],
  ],
  [['exact'], 'how many bytes per update was MessagePack', ['tk-format-options']],
  [
    ['paraphrase'],
    'why are prices integers in the wire format rather than doubles',
    ['tk-fixed-point'],
  ],
  [
    ['reply', 'paraphrase'],
    'what did we do about clients that cannot keep up with the stream',
    ['tk-coalesce'],
  ],
  [['reply'], 'what was eating memory in the feed pods', ['tk-leak-cause']],
  [['exact', 'sibling'], 'what does close code 4008 mean', ['tk-coalesce', 'tk-drop-again']],
  [
    ['reply', 'date'],
    'what threshold did we change for slow clients two days ago',
    ['tk-cutoff-raise'],
  ],
  [['paraphrase'], 'why did kubernetes keep killing the feed on staging', ['tk-probe-cause']],
  [['reply', 'exact'], 'what are the readiness probe settings now', ['tk-probe-fix']],
  [
    ['reply', 'paraphrase'],
    'how slow is a cold start of the feed service',
    ['tk-symbol-load', 'tk-symbol-cache'],
  ],
  [['reply'], 'how do we mark symbols that need extra decimal places', ['tk-crypto-flag']],
  [
    ['reply', 'date'],
    'what did we decide last week about crypto prices',
    ['tk-crypto-flag', 'tk-crypto-cost'],
  ],
  [['paraphrase'], 'who should review a change to the web frontend', ['tk-owners']],
  [
    ['reply', 'paraphrase'],
    'will candles be wrong for users who lag behind',
    ['tk-coalesce-charts'],
  ],
]);

/**
 * Update chains as they really arrive: turns (a request, the tool calls the agent made, its
 * closing message), not records. Each turn goes through the built-in extractor and is curated
 * against the project's current records, as the collector does, so the eval measures what a
 * user of the built-in extractor gets: which supersessions the rules find in records the
 * extractor wrote, and where the current record then ranks.
 *
 * Written after the supersession rules and never tuned against them (held out): agents'
 * closing messages phrased many ways, many with no word of change at all; edits that only
 * change a value; other turns in the same files (which must not retire anything).
 */

/** A tool call as Claude Code reports it. */
export type TurnTool =
  | { edit: [file: string, before: string, after: string] }
  | { write: [file: string, content: string] }
  | { bash: [command: string, stdout: string] }
  | { read: string };

/** One turn: what the developer asked, what the agent did, what it said at the end. */
export interface TurnStep {
  prompt: string;
  tools: TurnTool[];
  answer: string;
  daysAgo: number;
}

export interface TurnChain {
  project: string;
  subject: string;
  /** Oldest first; the last turn's record holds the current state. */
  steps: TurnStep[];
  current: string;
  recent: string;
  /** An older state: `[prompt, index of the step whose record answers it]`. */
  old: [string, number];
}

/** Turns on other subjects of the same projects, several in a chain's files. */
export const TURN_DISTRACTORS: ReadonlyArray<TurnStep & { project: string }> = [
  {
    project: 'billing-svc',
    prompt: 'connections pile up when idle, close idle pool clients after 30 seconds',
    tools: [
      {
        edit: [
          'src/db/pool.ts',
          'export const pool = new Pool({',
          'export const pool = new Pool({\n  idleTimeoutMillis: 30_000,',
        ],
      },
    ],
    answer: 'Idle clients are closed after 30 s now (idleTimeoutMillis in src/db/pool.ts).',
    daysAgo: 3,
  },
  {
    project: 'billing-svc',
    prompt: 'the invoice footer overlaps the totals on long invoices, fix the margins',
    tools: [
      { read: 'src/invoices/render.ts' },
      { edit: ['src/invoices/render.ts', 'margin: { bottom: 40 }', 'margin: { bottom: 90 }'] },
    ],
    answer: 'Gave the page a 90 pt bottom margin so the footer no longer overlaps the totals.',
    daysAgo: 2,
  },
  {
    project: 'billing-svc',
    prompt: 'add an endpoint that returns one invoice by id',
    tools: [
      {
        write: [
          'src/routes/invoices.ts',
          "router.get('/invoices/:id', async (req, res) => {\n  res.json(await invoices.byId(req.params.id));\n});\n",
        ],
      },
      { bash: ['pnpm test -- invoices', 'Tests  8 passed (8)'] },
    ],
    answer: 'Added GET /invoices/:id returning the invoice as JSON; its tests pass.',
    daysAgo: 12,
  },
  {
    project: 'billing-svc',
    prompt: 'why does the webhook test flake?',
    tools: [
      { read: 'test/webhooks.test.ts' },
      { bash: ['pnpm test -- webhooks', 'Tests  1 failed | 11 passed (12)'] },
    ],
    answer:
      'The webhook test waits a fixed 100 ms for the retry; under load the retry comes later. It needs to wait for the delivery instead of sleeping.',
    daysAgo: 6,
  },
  {
    project: 'mobile-app',
    prompt: 'the android back button crashes the app on the settings screen',
    tools: [
      { read: 'app/_layout.tsx' },
      {
        edit: [
          'app/_layout.tsx',
          '<Stack.Screen name="settings" />',
          '<Stack.Screen name="settings" options={{ gestureEnabled: true }} />',
        ],
      },
    ],
    answer: 'The settings screen had gestures disabled, which crashed on back. Enabled them.',
    daysAgo: 1,
  },
  {
    project: 'mobile-app',
    prompt: 'add dark mode colours to the theme',
    tools: [
      {
        write: [
          'src/theme/colors.ts',
          "export const dark = {\n  background: '#101114',\n  text: '#f2f2f2',\n};\n",
        ],
      },
    ],
    answer: 'Added a dark palette next to the light one in src/theme/colors.ts.',
    daysAgo: 20,
  },
  {
    project: 'mobile-app',
    prompt: 'cache product images for offline browsing too',
    tools: [
      {
        edit: [
          'src/images/cache.ts',
          'export const cacheable = [avatars];',
          'export const cacheable = [avatars, productImages];',
        ],
      },
    ],
    answer: 'Product images are cached too, so the catalogue works offline.',
    daysAgo: 5,
  },
  {
    project: 'data-pipeline',
    prompt: 'add the coupon_code column to the orders schema',
    tools: [
      {
        edit: [
          'pipeline/schema.py',
          '    "total": pa.float64(),',
          '    "total": pa.float64(),\n    "coupon_code": pa.string(),',
        ],
      },
    ],
    answer: 'orders now has a nullable coupon_code string column.',
    daysAgo: 9,
  },
  {
    project: 'data-pipeline',
    prompt: 'the transform crashes on orders without a country',
    tools: [
      { read: 'pipeline/transform.py' },
      {
        edit: [
          'pipeline/transform.py',
          'df["country"].str.upper()',
          'df["country"].fill_null("ZZ").str.to_uppercase()',
        ],
      },
      { bash: ['pytest tests/test_transform.py', '5 passed in 0.41s'] },
    ],
    answer: 'Missing countries become "ZZ" before upper-casing; the transform tests pass.',
    daysAgo: 2,
  },
  {
    project: 'data-pipeline',
    prompt: 'how long does a full load take?',
    tools: [{ bash: ['python -m pipeline.load --dry-run', 'planned 412 batches, est. 18 min'] }],
    answer: 'A full load is planned as 412 batches, about 18 minutes.',
    daysAgo: 4,
  },
];

export const TURN_CHAINS: readonly TurnChain[] = [
  {
    project: 'billing-svc',
    subject: 'service port',
    steps: [
      {
        prompt: 'make the billing service listen on 8080',
        tools: [{ edit: ['src/config.ts', 'port: 3000', 'port: 8080'] }],
        answer: 'The service listens on port 8080.',
        daysAgo: 90,
      },
      {
        prompt: '8080 clashes with the envoy sidecar, use 9090 for the service',
        tools: [{ edit: ['src/config.ts', 'port: 8080', 'port: 9090'] }],
        answer: 'Done: src/config.ts sets port 9090, clear of the sidecar.',
        daysAgo: 15,
      },
    ],
    current: 'what port does the billing service listen on?',
    recent: 'did the service port change lately?',
    old: ['which port did the billing service use at first?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'invoice pdf renderer',
    steps: [
      {
        prompt: 'render invoices to pdf with wkhtmltopdf',
        tools: [
          {
            write: [
              'src/invoices/render.ts',
              "import wkhtmltopdf from 'wkhtmltopdf';\nexport const render = (html: string) => wkhtmltopdf(html);\n",
            ],
          },
        ],
        answer: 'Invoices are rendered from HTML with wkhtmltopdf.',
        daysAgo: 200,
      },
      {
        prompt: 'wkhtmltopdf is unmaintained, switch invoice rendering to puppeteer',
        tools: [
          {
            edit: [
              'src/invoices/render.ts',
              "import wkhtmltopdf from 'wkhtmltopdf';",
              "import puppeteer from 'puppeteer';",
            ],
          },
          { bash: ['pnpm remove wkhtmltopdf && pnpm add puppeteer', 'done'] },
        ],
        answer: 'Invoice PDFs come from headless Chrome via Puppeteer now.',
        daysAgo: 80,
      },
      {
        prompt: 'chromium is too heavy for the lambda, generate invoice pdfs with pdfkit',
        tools: [
          {
            edit: [
              'src/invoices/render.ts',
              "import puppeteer from 'puppeteer';",
              "import PDFDocument from 'pdfkit';",
            ],
          },
          { bash: ['pnpm remove puppeteer && pnpm add pdfkit', 'done'] },
        ],
        answer: 'Invoice PDFs are drawn with pdfkit; the lambda bundle went from 180 MB to 9 MB.',
        daysAgo: 10,
      },
    ],
    current: 'what library generates our invoice PDFs?',
    recent: 'what did we change in invoice rendering recently?',
    old: ['why did we stop using wkhtmltopdf for invoices?', 1],
  },
  {
    project: 'billing-svc',
    subject: 'db pool size',
    steps: [
      {
        prompt: 'requests wait for db connections, raise the pool max to 25',
        tools: [{ edit: ['src/db/pool.ts', 'max: 10', 'max: 25'] }],
        answer: 'The pg pool allows 25 connections.',
        daysAgo: 60,
      },
      {
        prompt: 'postgres runs out of connections with 4 replicas, lower the pool to 15',
        tools: [{ edit: ['src/db/pool.ts', 'max: 25', 'max: 15'] }],
        answer: 'Pool max is 15 per replica, 60 in total, under the server limit of 100.',
        daysAgo: 8,
      },
    ],
    current: 'how many database connections does each replica open at most?',
    recent: 'what did we change about the connection pool lately?',
    old: ['what was the pool max before we lowered it?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'webhook retries',
    steps: [
      {
        prompt: 'retry failed webhook deliveries 3 times',
        tools: [{ edit: ['src/webhooks/retry.ts', 'attempts: 1', 'attempts: 3'] }],
        answer: 'Webhook deliveries are attempted 3 times, one minute apart.',
        daysAgo: 120,
      },
      {
        prompt:
          'customers miss webhooks during their deploys, use exponential backoff with 8 attempts',
        tools: [
          {
            edit: [
              'src/webhooks/retry.ts',
              'attempts: 3,\n  delay: 60_000',
              "attempts: 8,\n  backoff: 'exponential'",
            ],
          },
        ],
        answer: 'Webhooks retry 8 times with exponential backoff (1 min doubling to about 2 h).',
        daysAgo: 30,
      },
    ],
    current: 'how often do we retry a failed webhook delivery?',
    recent: 'what changed in webhook retries recently?',
    old: ['how many webhook attempts did we make at first?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'logger',
    steps: [
      {
        prompt: 'set up structured logging with winston',
        tools: [
          {
            write: [
              'src/log.ts',
              "import winston from 'winston';\nexport const log = winston.createLogger({ format: winston.format.json() });\n",
            ],
          },
        ],
        answer: 'Logs are JSON lines through winston (src/log.ts).',
        daysAgo: 300,
      },
      {
        prompt: 'winston is slow in the hot path, replace it with pino',
        tools: [
          {
            edit: [
              'src/log.ts',
              "import winston from 'winston';\nexport const log = winston.createLogger({ format: winston.format.json() });",
              "import pino from 'pino';\nexport const log = pino();",
            ],
          },
          { bash: ['pnpm remove winston && pnpm add pino', 'done'] },
        ],
        answer: 'Logging goes through pino; same JSON lines, about 5x cheaper per call.',
        daysAgo: 40,
      },
    ],
    current: 'which logging library does the billing service use?',
    recent: 'did we change anything about logging lately?',
    old: ['what did we log with before pino?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'node version',
    steps: [
      {
        prompt: 'pin node 18 for the service',
        tools: [{ write: ['.nvmrc', '18\n'] }],
        answer: '.nvmrc pins Node 18.',
        daysAgo: 400,
      },
      {
        prompt: 'node 18 is end of life, move us to node 20',
        tools: [
          { edit: ['.nvmrc', '18', '20'] },
          { edit: ['Dockerfile', 'FROM node:18-alpine', 'FROM node:20-alpine'] },
        ],
        answer: 'Node 20 in .nvmrc and the Docker image.',
        daysAgo: 150,
      },
      {
        prompt: 'upgrade to node 22 for the built-in test runner fixes',
        tools: [
          { edit: ['.nvmrc', '20', '22'] },
          { edit: ['Dockerfile', 'FROM node:20-alpine', 'FROM node:22-alpine'] },
          { bash: ['pnpm test', 'Tests  214 passed (214)'] },
        ],
        answer: 'On Node 22 everywhere; all 214 tests pass.',
        daysAgo: 12,
      },
    ],
    current: 'which node version does the billing service run on?',
    recent: 'what was the latest node upgrade?',
    old: ['what node version did we pin originally?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'api rate limit',
    steps: [
      {
        prompt: 'add a rate limit of 100 requests per minute per api key',
        tools: [
          {
            write: [
              'src/middleware/rate-limit.ts',
              'export const limiter = rateLimit({ windowMs: 60_000, limit: 100, keyGenerator: apiKeyOf });\n',
            ],
          },
        ],
        answer: 'Each API key may make 100 requests a minute; more get 429.',
        daysAgo: 100,
      },
      {
        prompt: 'enterprise customers hit the limit during syncs, allow 300 a minute',
        tools: [{ edit: ['src/middleware/rate-limit.ts', 'limit: 100', 'limit: 300'] }],
        answer: 'Raised it: 300 requests per minute per key.',
        daysAgo: 14,
      },
    ],
    current: 'what is the API rate limit per key?',
    recent: 'did the rate limit change recently?',
    old: ['what was the rate limit when we introduced it?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'jwt expiry',
    steps: [
      {
        prompt: 'issue access tokens valid for 24 hours',
        tools: [{ edit: ['src/auth/token.ts', "expiresIn: '7d'", "expiresIn: '24h'"] }],
        answer: 'Access tokens expire after 24 hours.',
        daysAgo: 180,
      },
      {
        prompt: 'security review: shorten access tokens to 1 hour and add refresh tokens',
        tools: [
          { edit: ['src/auth/token.ts', "expiresIn: '24h'", "expiresIn: '1h'"] },
          {
            write: [
              'src/auth/refresh.ts',
              "export const refreshToken = (user: User) => sign({ sub: user.id }, REFRESH_SECRET, { expiresIn: '30d' });\n",
            ],
          },
        ],
        answer:
          'Access tokens last 1 hour; a 30-day refresh token (src/auth/refresh.ts) gets a new one.',
        daysAgo: 25,
      },
    ],
    current: 'how long is an access token valid?',
    recent: 'what changed about auth tokens lately?',
    old: ['how long did access tokens last before the security review?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'test runner',
    steps: [
      {
        prompt: 'set up jest for unit tests',
        tools: [
          { bash: ['pnpm add -D jest ts-jest', 'done'] },
          { write: ['jest.config.js', "module.exports = { preset: 'ts-jest' };\n"] },
        ],
        answer: 'Unit tests run with Jest (ts-jest preset); `pnpm test` runs them.',
        daysAgo: 350,
      },
      {
        prompt: 'move the tests from jest to vitest, ts-jest is too slow',
        tools: [
          { bash: ['pnpm remove jest ts-jest && pnpm add -D vitest', 'done'] },
          { write: ['vitest.config.ts', 'export default defineConfig({ test: {} });\n'] },
          { bash: ['pnpm test', 'Tests  214 passed (214)'] },
        ],
        answer:
          'Vitest runs the suite now (jest.config.js deleted); 214 tests in 6 s instead of 41 s.',
        daysAgo: 70,
      },
    ],
    current: 'what test framework do we use?',
    recent: 'what changed about the test setup recently?',
    old: ['which test runner did we have before vitest?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'dunning schedule',
    steps: [
      {
        prompt: 'run the dunning job every night at 2am',
        tools: [{ edit: ['src/jobs/dunning.ts', "cron: '0 0 * * 0'", "cron: '0 2 * * *'"] }],
        answer: 'Dunning runs daily at 02:00 UTC.',
        daysAgo: 75,
      },
      {
        prompt: 'finance wants failed payments retried sooner, run dunning every 6 hours',
        tools: [{ edit: ['src/jobs/dunning.ts', "cron: '0 2 * * *'", "cron: '0 */6 * * *'"] }],
        answer: 'The dunning job runs every six hours.',
        daysAgo: 9,
      },
    ],
    current: 'how often does the dunning job run?',
    recent: 'did the dunning schedule change?',
    old: ['what time did dunning run when it was nightly?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'state management',
    steps: [
      {
        prompt: 'add redux toolkit for app state',
        tools: [
          {
            write: [
              'src/store/index.ts',
              "import { configureStore } from '@reduxjs/toolkit';\nexport const store = configureStore({ reducer });\n",
            ],
          },
        ],
        answer: 'App state lives in a Redux Toolkit store (src/store/index.ts).',
        daysAgo: 250,
      },
      {
        prompt: 'redux is too much boilerplate for us, use zustand for the store',
        tools: [
          {
            edit: [
              'src/store/index.ts',
              "import { configureStore } from '@reduxjs/toolkit';\nexport const store = configureStore({ reducer });",
              "import { create } from 'zustand';\nexport const useStore = create(slices);",
            ],
          },
        ],
        answer: 'The store is a zustand hook (useStore) now; the slices kept their shape.',
        daysAgo: 35,
      },
    ],
    current: 'how do we manage app state in the mobile app?',
    recent: 'what changed about state management lately?',
    old: ['what did the store use before zustand?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'api base url',
    steps: [
      {
        prompt: 'point the app at the v1 api',
        tools: [
          {
            edit: [
              'src/api/client.ts',
              "BASE_URL = 'http://localhost:4000'",
              "BASE_URL = 'https://api.example.com/v1'",
            ],
          },
        ],
        answer: 'The client talks to https://api.example.com/v1.',
        daysAgo: 140,
      },
      {
        prompt: 'v1 is being retired, switch the client to the v2 api',
        tools: [
          {
            edit: [
              'src/api/client.ts',
              "BASE_URL = 'https://api.example.com/v1'",
              "BASE_URL = 'https://api.example.com/v2'",
            ],
          },
          { bash: ['pnpm test api', 'Tests  31 passed (31)'] },
        ],
        answer: 'BASE_URL is the v2 API; the api tests pass against it.',
        daysAgo: 6,
      },
    ],
    current: 'which api version does the mobile client call?',
    recent: 'what changed about the api endpoint recently?',
    old: ['which api did the app use before v2?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'image cache size',
    steps: [
      {
        prompt: 'limit the image cache to 50 MB',
        tools: [{ edit: ['src/images/cache.ts', 'maxSizeMB: 0', 'maxSizeMB: 50'] }],
        answer: 'The image cache holds at most 50 MB.',
        daysAgo: 110,
      },
      {
        prompt: 'images reload all the time, make the cache 200 MB',
        tools: [{ edit: ['src/images/cache.ts', 'maxSizeMB: 50', 'maxSizeMB: 200'] }],
        answer: 'Cache limit 200 MB.',
        daysAgo: 50,
      },
      {
        prompt: 'low-end androids run out of storage, bring the image cache down to 100 MB',
        tools: [{ edit: ['src/images/cache.ts', 'maxSizeMB: 200', 'maxSizeMB: 100'] }],
        answer: 'The image cache is capped at 100 MB.',
        daysAgo: 7,
      },
    ],
    current: 'how big can the image cache get?',
    recent: 'what was the last change to the image cache?',
    old: ['what was the image cache limit before we reduced it?', 1],
  },
  {
    project: 'mobile-app',
    subject: 'navigation',
    steps: [
      {
        prompt: 'set up navigation with a react-navigation stack',
        tools: [
          {
            write: [
              'app/navigation.tsx',
              "import { createNativeStackNavigator } from '@react-navigation/native-stack';\nexport const Stack = createNativeStackNavigator();\n",
            ],
          },
        ],
        answer: 'Screens are in a react-navigation native stack (app/navigation.tsx).',
        daysAgo: 230,
      },
      {
        prompt: 'migrate navigation to expo-router so routes follow the files',
        tools: [
          {
            write: [
              'app/_layout.tsx',
              "import { Stack } from 'expo-router';\nexport default Stack;\n",
            ],
          },
          { bash: ['git rm app/navigation.tsx', "rm 'app/navigation.tsx'"] },
        ],
        answer: 'Routing is file-based with expo-router; app/navigation.tsx is gone.',
        daysAgo: 45,
      },
    ],
    current: 'how is navigation set up in the app?',
    recent: 'what changed in navigation recently?',
    old: ['what did we use for navigation before expo-router?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'minimum ios',
    steps: [
      {
        prompt: 'support iOS 13 and up',
        tools: [{ edit: ['ios/Podfile', "platform :ios, '12.0'", "platform :ios, '13.0'"] }],
        answer: 'The app supports iOS 13.0 and later.',
        daysAgo: 320,
      },
      {
        prompt: 'the new camera sdk needs iOS 15, raise the deployment target',
        tools: [
          { edit: ['ios/Podfile', "platform :ios, '13.0'", "platform :ios, '15.0'"] },
          { bash: ['cd ios && pod install', 'Pod installation complete!'] },
        ],
        answer: 'Deployment target is iOS 15.0; pods reinstalled.',
        daysAgo: 28,
      },
    ],
    current: 'what is the minimum iOS version we support?',
    recent: 'did the iOS deployment target change lately?',
    old: ['which iOS versions did we support before the camera sdk?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'analytics',
    steps: [
      {
        prompt: 'send screen views to segment',
        tools: [
          {
            write: [
              'src/analytics.ts',
              "import { createClient } from '@segment/analytics-react-native';\nexport const analytics = createClient({ writeKey });\n",
            ],
          },
        ],
        answer: 'Screen views go to Segment through src/analytics.ts.',
        daysAgo: 190,
      },
      {
        prompt: 'segment got too expensive, send analytics to posthog',
        tools: [
          {
            edit: [
              'src/analytics.ts',
              "import { createClient } from '@segment/analytics-react-native';\nexport const analytics = createClient({ writeKey });",
              "import PostHog from 'posthog-react-native';\nexport const analytics = new PostHog(apiKey);",
            ],
          },
        ],
        answer: 'Analytics events are sent to PostHog; the screen view calls are unchanged.',
        daysAgo: 16,
      },
    ],
    current: 'where do analytics events go?',
    recent: 'what changed about analytics lately?',
    old: ['which analytics service did we use first?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'new checkout flag',
    steps: [
      {
        prompt: 'put the new checkout behind a flag, off by default',
        tools: [{ write: ['src/flags.ts', 'export const flags = { newCheckout: false };\n'] }],
        answer: 'newCheckout is a flag in src/flags.ts, off by default.',
        daysAgo: 60,
      },
      {
        prompt: 'the new checkout tested well, turn it on for everyone',
        tools: [{ edit: ['src/flags.ts', 'newCheckout: false', 'newCheckout: true'] }],
        answer: 'Everyone gets the new checkout.',
        daysAgo: 4,
      },
    ],
    current: 'is the new checkout enabled?',
    recent: 'what changed with the new checkout lately?',
    old: ['was the new checkout on by default when we added the flag?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'font',
    steps: [
      {
        prompt: 'use Inter as the app font',
        tools: [
          { edit: ['src/theme/typography.ts', "fontFamily: 'System'", "fontFamily: 'Inter'"] },
        ],
        answer: 'Text uses the Inter font family.',
        daysAgo: 210,
      },
      {
        prompt: 'bundling Inter adds 1 MB, go back to the system font',
        tools: [
          { edit: ['src/theme/typography.ts', "fontFamily: 'Inter'", "fontFamily: 'System'"] },
        ],
        answer: 'Back on the system font; the bundle is 1 MB smaller.',
        daysAgo: 22,
      },
    ],
    current: 'what font does the app use?',
    recent: 'did the typography change lately?',
    old: ['which font did we bundle before?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'sync debounce',
    steps: [
      {
        prompt: 'debounce offline sync by 500ms',
        tools: [{ edit: ['src/sync/queue.ts', 'debounceMs: 0', 'debounceMs: 500'] }],
        answer: 'Sync waits 500 ms after the last change before sending.',
        daysAgo: 95,
      },
      {
        prompt: 'sync still hammers the api while typing, wait 2 seconds',
        tools: [{ edit: ['src/sync/queue.ts', 'debounceMs: 500', 'debounceMs: 2000'] }],
        answer: 'The debounce is 2 s.',
        daysAgo: 11,
      },
    ],
    current: 'how long does offline sync wait before sending changes?',
    recent: 'what did we change in offline sync lately?',
    old: ['what was the sync debounce originally?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'crash reporting',
    steps: [
      {
        prompt: 'report crashes to bugsnag',
        tools: [
          {
            write: [
              'src/errors.ts',
              "import Bugsnag from '@bugsnag/react-native';\nBugsnag.start();\n",
            ],
          },
        ],
        answer: 'Crashes are reported to Bugsnag, started in src/errors.ts.',
        daysAgo: 260,
      },
      {
        prompt: 'move crash reporting to sentry, we use it on the backend already',
        tools: [
          {
            edit: [
              'src/errors.ts',
              "import Bugsnag from '@bugsnag/react-native';\nBugsnag.start();",
              "import * as Sentry from '@sentry/react-native';\nSentry.init({ dsn });",
            ],
          },
        ],
        answer: 'Crash reports go to Sentry, like the backend’s.',
        daysAgo: 33,
      },
    ],
    current: 'which crash reporter does the app use?',
    recent: 'what changed about crash reporting lately?',
    old: ['where did crash reports go before sentry?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'load batch size',
    steps: [
      {
        prompt: 'load rows in batches of 1000',
        tools: [{ edit: ['pipeline/load.py', 'BATCH_SIZE = 100', 'BATCH_SIZE = 1000'] }],
        answer: 'The loader inserts 1000 rows per batch.',
        daysAgo: 130,
      },
      {
        prompt: 'loads are slow, try batches of 5000',
        tools: [
          { edit: ['pipeline/load.py', 'BATCH_SIZE = 1000', 'BATCH_SIZE = 5000'] },
          { bash: ['python -m pipeline.load --dry-run', 'planned 412 batches, est. 18 min'] },
        ],
        answer: 'With 5000-row batches a full load is about 18 min (was 55).',
        daysAgo: 5,
      },
    ],
    current: 'how many rows does the loader insert per batch?',
    recent: 'what did we change in the loader recently?',
    old: ['what batch size did the loader use before?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'warehouse',
    steps: [
      {
        prompt: 'write the cleaned tables to redshift',
        tools: [
          {
            write: [
              'pipeline/warehouse.py',
              'import redshift_connector\nconn = redshift_connector.connect(**REDSHIFT)\n',
            ],
          },
        ],
        answer: 'Clean tables are written to Redshift (pipeline/warehouse.py).',
        daysAgo: 280,
      },
      {
        prompt: 'we are moving the warehouse to snowflake, change the writer',
        tools: [
          {
            edit: [
              'pipeline/warehouse.py',
              'import redshift_connector\nconn = redshift_connector.connect(**REDSHIFT)',
              'import snowflake.connector\nconn = snowflake.connector.connect(**SNOWFLAKE)',
            ],
          },
        ],
        answer:
          'The writer targets Snowflake; the REDSHIFT settings can go once the backfill is done.',
        daysAgo: 90,
      },
      {
        prompt: 'the backfill finished, delete the redshift settings',
        tools: [
          { edit: ['pipeline/settings.py', 'REDSHIFT = {', '# REDSHIFT removed\n_UNUSED = {'] },
        ],
        answer: 'Redshift settings are removed; Snowflake is the only warehouse.',
        daysAgo: 60,
      },
    ],
    current: 'which warehouse do the cleaned tables go to?',
    recent: 'what happened with the warehouse migration lately?',
    old: ['which warehouse did the pipeline write to first?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'scheduler',
    steps: [
      {
        prompt: 'run the pipeline from cron on the ec2 box every hour',
        tools: [
          { write: ['deploy/crontab', '0 * * * * cd /srv/pipeline && python -m pipeline.run\n'] },
        ],
        answer: 'An hourly crontab on the EC2 host runs the pipeline.',
        daysAgo: 330,
      },
      {
        prompt: 'cron gives us no retries or history, schedule the pipeline in airflow',
        tools: [
          {
            write: [
              'dags/pipeline.py',
              "with DAG('pipeline', schedule='@hourly', default_args={'retries': 2}) as dag:\n    run = PythonOperator(task_id='run', python_callable=run_pipeline)\n",
            ],
          },
          { bash: ['git rm deploy/crontab', "rm 'deploy/crontab'"] },
        ],
        answer: 'Airflow schedules the pipeline hourly with 2 retries; the crontab is deleted.',
        daysAgo: 160,
      },
      {
        prompt: 'port the airflow dag to dagster assets',
        tools: [
          {
            write: [
              'pipeline/definitions.py',
              "defs = Definitions(assets=[orders, customers], schedules=[ScheduleDefinition(job=all_assets, cron_schedule='0 * * * *')])\n",
            ],
          },
          { bash: ['git rm dags/pipeline.py', "rm 'dags/pipeline.py'"] },
        ],
        answer: 'Dagster runs the pipeline as hourly assets; the Airflow DAG is removed.',
        daysAgo: 20,
      },
    ],
    current: 'what orchestrates the pipeline runs?',
    recent: 'what was the last change to how the pipeline is scheduled?',
    old: ['how was the pipeline scheduled before airflow?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'dataframe library',
    steps: [
      {
        prompt: 'write the transform step with pandas',
        tools: [
          {
            write: [
              'pipeline/transform.py',
              'import pandas as pd\n\ndef transform(df: pd.DataFrame) -> pd.DataFrame:\n    return df.dropna(subset=["order_id"])\n',
            ],
          },
        ],
        answer: 'The transform is a pandas function in pipeline/transform.py.',
        daysAgo: 240,
      },
      {
        prompt: 'pandas runs out of memory on the big days, port the transform to polars',
        tools: [
          {
            edit: [
              'pipeline/transform.py',
              'import pandas as pd\n\ndef transform(df: pd.DataFrame) -> pd.DataFrame:\n    return df.dropna(subset=["order_id"])',
              'import polars as pl\n\ndef transform(df: pl.LazyFrame) -> pl.LazyFrame:\n    return df.drop_nulls("order_id")',
            ],
          },
          { bash: ['pytest tests/test_transform.py', '5 passed in 0.38s'] },
        ],
        answer: 'The transform runs on polars lazy frames; peak memory fell from 14 GB to 3 GB.',
        daysAgo: 18,
      },
    ],
    current: 'what dataframe library does the transform use?',
    recent: 'what changed in the transform step recently?',
    old: ['what did the transform use before polars?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'dedup key',
    steps: [
      {
        prompt: 'deduplicate events on user_id and timestamp',
        tools: [
          {
            write: [
              'pipeline/dedupe.py',
              'def dedupe(df):\n    return df.unique(subset=["user_id", "ts"])\n',
            ],
          },
        ],
        answer: 'Events are deduplicated on (user_id, ts).',
        daysAgo: 170,
      },
      {
        prompt: 'two real events can share a timestamp, dedupe on event_id only',
        tools: [
          {
            edit: [
              'pipeline/dedupe.py',
              'df.unique(subset=["user_id", "ts"])',
              'df.unique(subset=["event_id"])',
            ],
          },
        ],
        answer: 'Deduplication uses event_id alone; same-millisecond events survive.',
        daysAgo: 13,
      },
    ],
    current: 'what key do we deduplicate events on?',
    recent: 'what changed in event deduplication?',
    old: ['what was the dedup key originally?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'raw file retention',
    steps: [
      {
        prompt: 'expire raw files in the landing bucket after 90 days',
        tools: [{ edit: ['infra/s3.tf', 'days = 365', 'days = 90'] }],
        answer: 'Raw files in the landing bucket expire after 90 days.',
        daysAgo: 200,
      },
      {
        prompt: 'storage costs: keep raw files only 30 days',
        tools: [
          { edit: ['infra/s3.tf', 'days = 90', 'days = 30'] },
          { bash: ['terraform plan', 'Plan: 0 to add, 1 to change, 0 to destroy.'] },
        ],
        answer: 'The lifecycle rule deletes raw files after 30 days (terraform plan: 1 change).',
        daysAgo: 3,
      },
    ],
    current: 'how long do we keep raw files in s3?',
    recent: 'did the retention of raw files change lately?',
    old: ['how long did we keep raw files before cutting costs?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'python version',
    steps: [
      {
        prompt: 'require python 3.10',
        tools: [
          { edit: ['pyproject.toml', 'requires-python = ">=3.8"', 'requires-python = ">=3.10"'] },
        ],
        answer: 'The package requires Python 3.10 or newer.',
        daysAgo: 260,
      },
      {
        prompt: 'bump the minimum python to 3.12 for the faster interpreter',
        tools: [
          { edit: ['pyproject.toml', 'requires-python = ">=3.10"', 'requires-python = ">=3.12"'] },
          { bash: ['pytest', '88 passed in 4.02s'] },
        ],
        answer: 'Python 3.12 is the minimum; all 88 tests pass.',
        daysAgo: 19,
      },
    ],
    current: 'which python version does the pipeline require?',
    recent: 'did the python requirement change recently?',
    old: ['what python version did we require before?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'timezone',
    steps: [
      {
        prompt: 'use berlin time for daily partitions',
        tools: [{ edit: ['pipeline/time.py', 'TZ = None', 'TZ = "Europe/Berlin"'] }],
        answer: 'Daily partitions follow Europe/Berlin days.',
        daysAgo: 150,
      },
      {
        prompt: 'partitions break around daylight saving, use utc for partitions',
        tools: [{ edit: ['pipeline/time.py', 'TZ = "Europe/Berlin"', 'TZ = "UTC"'] }],
        answer: 'Partitions are UTC days; the DST gaps and doubles are gone.',
        daysAgo: 21,
      },
    ],
    current: 'which timezone are the daily partitions in?',
    recent: 'what changed about partition days?',
    old: ['which timezone did partitions use before utc?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'parquet compression',
    steps: [
      {
        prompt: 'write parquet with snappy compression',
        tools: [{ edit: ['pipeline/write.py', 'compression=None', 'compression="snappy"'] }],
        answer: 'Parquet output is snappy-compressed.',
        daysAgo: 180,
      },
      {
        prompt: 'files are big, compress parquet with zstd instead',
        tools: [{ edit: ['pipeline/write.py', 'compression="snappy"', 'compression="zstd"'] }],
        answer: 'Parquet is written with zstd: files are 35% smaller.',
        daysAgo: 8,
      },
    ],
    current: 'how is the parquet output compressed?',
    recent: 'did the parquet settings change lately?',
    old: ['what compression did parquet files use at first?', 0],
  },
  {
    project: 'billing-svc',
    subject: 'currency rounding',
    steps: [
      {
        prompt: 'round invoice amounts to cents with Math.round',
        tools: [
          {
            write: [
              'src/money/round.ts',
              'export const roundAmount = (x: number) => Math.round(x * 100) / 100;\n',
            ],
          },
        ],
        answer: 'roundAmount rounds half up to whole cents.',
        daysAgo: 220,
      },
      {
        prompt: 'accounting wants bankers rounding for invoice amounts',
        tools: [
          {
            edit: [
              'src/money/round.ts',
              'export const roundAmount = (x: number) => Math.round(x * 100) / 100;',
              'export const roundAmount = (x: number) => roundHalfEven(x, 2);',
            ],
          },
          { bash: ['pnpm test money', 'Tests  12 passed (12)'] },
        ],
        answer: 'roundAmount uses half-to-even (banker’s) rounding; the money tests pass.',
        daysAgo: 27,
      },
    ],
    current: 'how do we round invoice amounts?',
    recent: 'what changed about rounding lately?',
    old: ['how were amounts rounded before bankers rounding?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'request timeout',
    steps: [
      {
        prompt: 'give api requests a 10 second timeout',
        tools: [{ edit: ['src/api/client.ts', 'timeout: 0', 'timeout: 10_000'] }],
        answer: 'API requests time out after 10 s.',
        daysAgo: 85,
      },
      {
        prompt: 'uploads on slow networks time out, make it 30 seconds',
        tools: [{ edit: ['src/api/client.ts', 'timeout: 10_000', 'timeout: 30_000'] }],
        answer: 'The request timeout is 30 s.',
        daysAgo: 17,
      },
    ],
    current: 'what timeout do api requests have?',
    recent: 'did the request timeout change lately?',
    old: ['what was the api timeout before we raised it?', 0],
  },
];

/**
 * Update chains: one subject of a project stated again and again over time (a value
 * changed, a tool replaced, a decision reversed), each statement a record as an extractor
 * would write it, oldest first. Prompts ask for the current state, what changed recently, and
 * an old state. Written for this eval: no record or prompt comes from another set, and the
 * prompts use the words a developer would, not the records' own wording where avoidable.
 */

/** One statement of a chain: a record as of `daysAgo`. */
export interface ChainStep {
  title: string;
  summary: string;
  facts?: string[];
  files?: string[];
  daysAgo: number;
}

export interface Chain {
  project: string;
  /** Short name of the subject (reports). */
  subject: string;
  /** Oldest first; the last is the current state. */
  steps: ChainStep[];
  /** Asks for the current state: the last step answers it. */
  current: string;
  /** Asks what changed lately: the last step answers it. */
  recent: string;
  /** Asks for an older state: `[prompt, index of the step that answers it]`. */
  old: [string, number];
}

/** Records on other subjects of the same projects, which no chain prompt is about. */
export interface Distractor {
  project: string;
  title: string;
  summary: string;
  facts?: string[];
  files?: string[];
  daysAgo: number;
}

export const CHAINS: readonly Chain[] = [
  {
    project: 'shop-api',
    subject: 'job queue',
    steps: [
      {
        title: 'Background jobs run on Redis with BullMQ',
        summary:
          'Order emails and invoice rendering are queued in Redis through BullMQ; workers live in src/jobs/worker.ts.',
        files: ['src/jobs/queue.ts', 'src/jobs/worker.ts'],
        daysAgo: 120,
      },
      {
        title: 'Moved the job queue from Redis to RabbitMQ',
        summary:
          'Jobs now go through RabbitMQ instead of Redis: BullMQ lost jobs on Redis failover. The worker consumes the orders queue with amqplib.',
        files: ['src/jobs/queue.ts', 'src/jobs/worker.ts'],
        daysAgo: 60,
      },
      {
        title: 'Job queue replaced by SQS',
        summary:
          'RabbitMQ was replaced by Amazon SQS to drop the self-hosted broker; the worker now polls the orders-jobs queue with the AWS SDK.',
        files: ['src/jobs/queue.ts', 'src/jobs/worker.ts'],
        daysAgo: 10,
      },
    ],
    current: 'which message broker do background jobs use right now?',
    recent: 'what changed lately about how we queue background work?',
    old: ['what did we use for background jobs before RabbitMQ?', 0],
  },
  {
    project: 'shop-api',
    subject: 'payment client timeout',
    steps: [
      {
        title: 'Payment client timeout',
        summary:
          'The HTTP timeout of the payment provider client is 10 s; slow 3-D Secure checks time out at peak.',
        facts: ['timeout: 10 s in src/payments/client.ts'],
        files: ['src/payments/client.ts'],
        daysAgo: 90,
      },
      {
        title: 'Raised the payment client timeout',
        summary: 'The payment client timeout is now 30 s so 3-D Secure checks finish at peak load.',
        facts: ['timeout: 30 s in src/payments/client.ts'],
        files: ['src/payments/client.ts'],
        daysAgo: 5,
      },
    ],
    current: 'how long does the payments HTTP client wait before giving up?',
    recent: 'did anything change recently with the payment provider timeout?',
    old: ['what was the payment timeout set to originally?', 0],
  },
  {
    project: 'shop-api',
    subject: 'dev server port',
    steps: [
      {
        title: 'API dev server listens on port 3000',
        summary: 'npm run dev starts the API on port 3000; the web app proxies /api there.',
        files: ['package.json', 'src/server.ts'],
        daysAgo: 200,
      },
      {
        title: 'API dev server port is 8080',
        summary: 'The dev server port is now 8080: port 3000 clashed with the web app dev server.',
        files: ['src/server.ts', '.env.example'],
        daysAgo: 40,
      },
      {
        title: 'Dev server port set by PORT, default 4000',
        summary:
          'The API reads PORT from the environment; the default port is 4000 since the docker compose setup.',
        files: ['src/server.ts', '.env.example', 'docker-compose.yml'],
        daysAgo: 3,
      },
    ],
    current: 'what port do I open to reach the API locally?',
    recent: 'what is new about the local API port setup?',
    old: ['which port did the API use back when the web app proxied to it?', 0],
  },
  {
    project: 'shop-api',
    subject: 'ORM',
    steps: [
      {
        title: 'Database access goes through TypeORM',
        summary: 'Entities live in src/db/entities; migrations are generated with the TypeORM CLI.',
        files: ['src/db/data-source.ts'],
        daysAgo: 300,
      },
      {
        title: 'Switched from TypeORM to Prisma',
        summary:
          'We switched from TypeORM to Prisma: the schema is now prisma/schema.prisma and migrations run with prisma migrate.',
        files: ['prisma/schema.prisma', 'src/db/client.ts'],
        daysAgo: 30,
      },
    ],
    current: 'what ORM does the API use to talk to postgres?',
    recent: 'what did we change about database access recently?',
    old: ['how were entities defined before the Prisma migration?', 0],
  },
  {
    project: 'shop-api',
    subject: 'auth provider',
    steps: [
      {
        title: 'Login uses Auth0',
        summary:
          'Customers sign in through Auth0 universal login; the API verifies Auth0 JWTs in src/auth/verify.ts.',
        files: ['src/auth/verify.ts'],
        daysAgo: 240,
      },
      {
        title: 'Auth moved from Auth0 to Cognito',
        summary:
          'Sign-in moved from Auth0 to AWS Cognito to cut costs; verify.ts now checks Cognito JWKS.',
        files: ['src/auth/verify.ts'],
        daysAgo: 70,
      },
      {
        title: 'Cognito replaced by our own session login',
        summary:
          'We no longer use Cognito: customers sign in with email codes handled by src/auth/session.ts, sessions in Postgres.',
        files: ['src/auth/session.ts', 'src/auth/verify.ts'],
        daysAgo: 8,
      },
    ],
    current: 'how do customers sign in today?',
    recent: 'what changed recently in customer authentication?',
    old: ['which identity provider did we use before Cognito?', 0],
  },
  {
    project: 'shop-api',
    subject: 'rate limit',
    steps: [
      {
        title: 'Public API rate limit',
        summary:
          'The public API rate limit is 100 requests per minute per key, enforced in src/middleware/rate-limit.ts.',
        facts: ['limit: 100 per minute'],
        files: ['src/middleware/rate-limit.ts'],
        daysAgo: 150,
      },
      {
        title: 'Public API rate limit raised',
        summary:
          'The public API rate limit is now 300 requests per minute per key after partners hit 429s.',
        facts: ['limit: 300 per minute'],
        files: ['src/middleware/rate-limit.ts'],
        daysAgo: 20,
      },
    ],
    current: 'how many requests per minute can a partner API key make?',
    recent: 'any recent change to throttling of the public API?',
    old: ['what was the old per-key request cap before partners complained?', 0],
  },
  {
    project: 'shop-api',
    subject: 'pagination size',
    steps: [
      {
        title: 'List endpoints return 20 items per page',
        summary: 'Default page size is 20 for /orders and /products; max page size 100.',
        facts: ['pageSize: 20', 'maxPageSize: 100'],
        files: ['src/http/pagination.ts'],
        daysAgo: 180,
      },
      {
        title: 'Default page size is 50',
        summary:
          'The default page size is now 50 items; the mobile app asked for fewer round trips.',
        facts: ['pageSize: 50', 'maxPageSize: 100'],
        files: ['src/http/pagination.ts'],
        daysAgo: 12,
      },
    ],
    current: 'how many orders does one page of the list endpoint return by default?',
    recent: 'what did we change about paging recently?',
    old: ['what was the default page size before the mobile app request?', 0],
  },
  {
    project: 'shop-api',
    subject: 'email provider',
    steps: [
      {
        title: 'Transactional email through SendGrid',
        summary:
          'Order confirmations and password codes are sent through SendGrid templates from src/email/send.ts.',
        files: ['src/email/send.ts'],
        daysAgo: 220,
      },
      {
        title: 'Transactional email now sent with Postmark',
        summary:
          'We replaced SendGrid with Postmark for better deliverability; templates are Postmark aliases now.',
        files: ['src/email/send.ts', 'src/email/templates.ts'],
        daysAgo: 25,
      },
    ],
    current: 'which service sends our order confirmation emails?',
    recent: 'anything new with outgoing email lately?',
    old: ['which email provider did we use before Postmark?', 0],
  },
  {
    project: 'shop-api',
    subject: 'node version',
    steps: [
      {
        title: 'API runs on Node 18',
        summary: 'The Dockerfile uses node:18-alpine and .nvmrc pins 18.',
        facts: ['node: 18'],
        files: ['Dockerfile', '.nvmrc'],
        daysAgo: 260,
      },
      {
        title: 'Upgraded the API to Node 20',
        summary:
          'Node 18 reached end of life, so the API now runs on Node 20; .nvmrc and the Dockerfile say 20.',
        facts: ['node: 20'],
        files: ['Dockerfile', '.nvmrc'],
        daysAgo: 100,
      },
      {
        title: 'API upgraded to Node 22',
        summary: 'The API is now on Node 22 for the built-in test runner and require(esm).',
        facts: ['node: 22'],
        files: ['Dockerfile', '.nvmrc'],
        daysAgo: 6,
      },
    ],
    current: 'which node release does the API container run?',
    recent: 'what runtime upgrade did the API get recently?',
    old: ['which node version did we run before the Node 22 upgrade?', 1],
  },
  {
    project: 'shop-api',
    subject: 'session store',
    steps: [
      {
        title: 'Sessions kept in memory',
        summary: 'express-session uses the default MemoryStore; sessions are lost on every deploy.',
        files: ['src/http/session.ts'],
        daysAgo: 210,
      },
      {
        title: 'Sessions moved to Redis',
        summary:
          'Sessions are stored in Redis with connect-redis instead of memory, so deploys no longer log everyone out.',
        files: ['src/http/session.ts'],
        daysAgo: 45,
      },
    ],
    current: 'where are user sessions stored?',
    recent: 'did the session storage change recently?',
    old: ['where did sessions live before they survived deploys?', 0],
  },
  {
    project: 'shop-api',
    subject: 'error tracking',
    steps: [
      {
        title: 'Errors reported to Rollbar',
        summary: 'Unhandled errors are reported to Rollbar from src/observability/errors.ts.',
        files: ['src/observability/errors.ts'],
        daysAgo: 170,
      },
      {
        title: 'Error tracking switched to Sentry',
        summary: 'We switched error tracking from Rollbar to Sentry to get performance traces too.',
        files: ['src/observability/errors.ts'],
        daysAgo: 15,
      },
    ],
    current: 'which tool do crashes get reported to?',
    recent: 'what changed recently in error reporting?',
    old: ['what did we report exceptions to before Sentry?', 0],
  },
  {
    project: 'shop-api',
    subject: 'image storage',
    steps: [
      {
        title: 'Product images stored on local disk',
        summary: 'Uploads are written to /var/uploads on the API host and served by nginx.',
        files: ['src/uploads/store.ts'],
        daysAgo: 280,
      },
      {
        title: 'Product images moved to S3',
        summary:
          'Product images now go to the shop-assets S3 bucket instead of local disk; nginx no longer serves uploads.',
        files: ['src/uploads/store.ts'],
        daysAgo: 90,
      },
      {
        title: 'Product images served from Cloudflare R2',
        summary:
          'Images moved from S3 to Cloudflare R2 to avoid egress fees; store.ts uses the S3-compatible R2 endpoint.',
        files: ['src/uploads/store.ts'],
        daysAgo: 9,
      },
    ],
    current: 'where do uploaded product photos end up?',
    recent: 'what changed lately about where product pictures are kept?',
    old: ['which cloud bucket held the product photos before R2?', 1],
  },
  {
    project: 'data-pipeline',
    subject: 'airflow schedule',
    steps: [
      {
        title: 'Nightly ingest DAG runs at 02:00 UTC',
        summary: 'The ingest_orders DAG is scheduled at 02:00 UTC every night.',
        facts: ['schedule: 0 2 * * *'],
        files: ['dags/ingest_orders.py'],
        daysAgo: 140,
      },
      {
        title: 'Ingest DAG runs hourly',
        summary: 'ingest_orders now runs every hour instead of nightly so dashboards are fresh.',
        facts: ['schedule: 0 * * * *'],
        files: ['dags/ingest_orders.py'],
        daysAgo: 11,
      },
    ],
    current: 'how often does the order ingestion job run?',
    recent: 'what changed with the ingest schedule recently?',
    old: ['when did the ingest run before it became hourly?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'warehouse',
    steps: [
      {
        title: 'Warehouse is Redshift',
        summary: 'Transformed tables are loaded into Amazon Redshift with COPY from S3.',
        files: ['load/redshift.py'],
        daysAgo: 330,
      },
      {
        title: 'Migrated the warehouse from Redshift to Snowflake',
        summary:
          'The warehouse moved from Redshift to Snowflake; loads use snowpipe and load/snowflake.py replaced load/redshift.py.',
        files: ['load/snowflake.py'],
        daysAgo: 75,
      },
      {
        title: 'Warehouse is now BigQuery',
        summary:
          'Snowflake was replaced by BigQuery when analytics moved to GCP; load/bigquery.py writes with the storage write API.',
        files: ['load/bigquery.py'],
        daysAgo: 7,
      },
    ],
    current: 'which data warehouse do we load into?',
    recent: 'what was the most recent change to the warehouse?',
    old: ['what warehouse did we load into right before BigQuery?', 1],
  },
  {
    project: 'data-pipeline',
    subject: 'python version',
    steps: [
      {
        title: 'Pipeline runs on Python 3.9',
        summary: 'The pipeline image is python:3.9-slim.',
        facts: ['python: 3.9'],
        files: ['Dockerfile'],
        daysAgo: 250,
      },
      {
        title: 'Pipeline upgraded to Python 3.11',
        summary:
          'The pipeline now runs on Python 3.11 for faster pandas; the image is python:3.11-slim.',
        facts: ['python: 3.11'],
        files: ['Dockerfile', 'pyproject.toml'],
        daysAgo: 80,
      },
      {
        title: 'Pipeline runs on Python 3.12',
        summary: 'Upgraded to Python 3.12 now that pyarrow supports it.',
        facts: ['python: 3.12'],
        files: ['Dockerfile', 'pyproject.toml'],
        daysAgo: 4,
      },
    ],
    current: 'what python version is the pipeline image built on?',
    recent: 'what python upgrade happened most recently?',
    old: ['what python did the pipeline use before 3.11?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'dataframe library',
    steps: [
      {
        title: 'Transforms written in pandas',
        summary: 'Every transform in transforms/ uses pandas DataFrames.',
        files: ['transforms/orders.py'],
        daysAgo: 230,
      },
      {
        title: 'Transforms rewritten with Polars',
        summary:
          'We rewrote the transforms with Polars instead of pandas: the orders transform went from 9 minutes to 40 seconds.',
        files: ['transforms/orders.py', 'transforms/customers.py'],
        daysAgo: 35,
      },
    ],
    current: 'what dataframe library do the transforms use?',
    recent: 'what performance change did the transforms get lately?',
    old: ['what library were the transforms written in originally?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'retry policy',
    steps: [
      {
        title: 'Ingest tasks retry 3 times',
        summary: 'Airflow ingest tasks have retries: 3 with a 5 minute delay.',
        facts: ['retries: 3', 'retry_delay: 5 min'],
        files: ['dags/common.py'],
        daysAgo: 160,
      },
      {
        title: 'Ingest tasks retry 5 times with backoff',
        summary:
          'Retries are now 5 with exponential backoff; the upstream API throttles for up to 20 minutes.',
        facts: ['retries: 5', 'retry_exponential_backoff: true'],
        files: ['dags/common.py'],
        daysAgo: 14,
      },
    ],
    current: 'how many times does a failed ingest task retry?',
    recent: 'what changed about task retries recently?',
    old: ['how many retries did ingest tasks have before the backoff change?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'orchestrator',
    steps: [
      {
        title: 'Pipelines scheduled with cron on a VM',
        summary: 'Each pipeline is a crontab entry on the etl-1 VM calling run.sh.',
        files: ['deploy/crontab'],
        daysAgo: 360,
      },
      {
        title: 'Moved scheduling from cron to Airflow',
        summary:
          'Pipelines are now Airflow DAGs instead of crontab entries; the etl-1 VM is no longer used.',
        files: ['dags/ingest_orders.py'],
        daysAgo: 150,
      },
      {
        title: 'Airflow replaced by Dagster',
        summary:
          'We migrated from Airflow to Dagster for asset-based lineage; DAGs became assets in pipeline/assets.py.',
        files: ['pipeline/assets.py'],
        daysAgo: 2,
      },
    ],
    current: 'what do we use to orchestrate the pipelines?',
    recent: 'what is the latest change in how pipelines are scheduled?',
    old: ['how were pipelines scheduled before Airflow?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'partitioning',
    steps: [
      {
        title: 'Orders table partitioned by month',
        summary: 'The orders fact table is partitioned by order month.',
        files: ['models/orders.sql'],
        daysAgo: 190,
      },
      {
        title: 'Orders table partitioned by day',
        summary:
          'The orders table is now partitioned by day instead of month to prune scans for daily reports.',
        files: ['models/orders.sql'],
        daysAgo: 18,
      },
    ],
    current: 'how is the orders fact table partitioned?',
    recent: 'what changed in the orders table layout?',
    old: ['what partition granularity did orders have originally?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'secrets',
    steps: [
      {
        title: 'Pipeline secrets in a .env file',
        summary: 'Database passwords and API keys are read from .env on the worker.',
        files: ['.env.example', 'pipeline/config.py'],
        daysAgo: 270,
      },
      {
        title: 'Pipeline secrets moved to AWS Secrets Manager',
        summary:
          'Secrets are no longer in .env files: config.py reads them from AWS Secrets Manager at start.',
        files: ['pipeline/config.py'],
        daysAgo: 50,
      },
    ],
    current: 'where does the pipeline read database passwords from?',
    recent: 'did secret handling in the pipeline change recently?',
    old: ['where were pipeline credentials kept before Secrets Manager?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'dbt version',
    steps: [
      {
        title: 'dbt models on dbt-core 1.5',
        summary: 'Models build with dbt-core 1.5.',
        facts: ['dbt-core: 1.5'],
        files: ['requirements.txt'],
        daysAgo: 200,
      },
      {
        title: 'dbt upgraded to 1.7',
        summary: 'dbt-core is now 1.7 for model contracts.',
        facts: ['dbt-core: 1.7'],
        files: ['requirements.txt'],
        daysAgo: 60,
      },
      {
        title: 'dbt upgraded to 1.8',
        summary: 'Upgraded dbt-core to 1.8 and adapters to the new package layout.',
        facts: ['dbt-core: 1.8'],
        files: ['requirements.txt'],
        daysAgo: 5,
      },
    ],
    current: 'which dbt-core version do the models build with?',
    recent: 'what was the last dbt upgrade?',
    old: ['what dbt version did we have right before 1.8?', 1],
  },
  {
    project: 'data-pipeline',
    subject: 'alerting',
    steps: [
      {
        title: 'Pipeline failures alert by email',
        summary: 'Failed DAG runs send an email to data-team@ via Airflow email_on_failure.',
        files: ['dags/common.py'],
        daysAgo: 175,
      },
      {
        title: 'Pipeline failures alert in Slack',
        summary:
          'Failures now post to #data-alerts in Slack instead of email, through a Slack webhook callback.',
        files: ['dags/common.py', 'pipeline/alerts.py'],
        daysAgo: 22,
      },
    ],
    current: 'how are we notified when a pipeline run fails?',
    recent: 'what changed about failure notifications lately?',
    old: ['how were failures reported before the Slack alerts?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'state management',
    steps: [
      {
        title: 'App state in Redux',
        summary: 'Global state lives in a Redux store with redux-thunk in src/store.',
        files: ['src/store/index.ts'],
        daysAgo: 320,
      },
      {
        title: 'Replaced Redux with Zustand',
        summary: 'We replaced Redux with Zustand stores per feature; src/store/index.ts is gone.',
        files: ['src/features/cart/store.ts'],
        daysAgo: 110,
      },
      {
        title: 'Server state moved to TanStack Query',
        summary:
          'Fetched data now lives in TanStack Query instead of Zustand; Zustand keeps only UI state.',
        files: ['src/features/cart/store.ts', 'src/api/queries.ts'],
        daysAgo: 12,
      },
    ],
    current: 'how does the app hold data fetched from the API now?',
    recent: 'what is the latest change to state management in the app?',
    old: ['what did the app use for global state before Zustand?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'min iOS version',
    steps: [
      {
        title: 'App supports iOS 14 and later',
        summary: 'The deployment target is iOS 14.',
        facts: ['IPHONEOS_DEPLOYMENT_TARGET: 14.0'],
        files: ['ios/App.xcodeproj/project.pbxproj'],
        daysAgo: 240,
      },
      {
        title: 'Minimum iOS raised to 15',
        summary: 'The deployment target is now iOS 15; iOS 14 was under 1 % of sessions.',
        facts: ['IPHONEOS_DEPLOYMENT_TARGET: 15.0'],
        files: ['ios/App.xcodeproj/project.pbxproj'],
        daysAgo: 70,
      },
      {
        title: 'Minimum iOS raised to 16',
        summary: 'The deployment target is now iOS 16 so we can use the new navigation APIs.',
        facts: ['IPHONEOS_DEPLOYMENT_TARGET: 16.0'],
        files: ['ios/App.xcodeproj/project.pbxproj'],
        daysAgo: 9,
      },
    ],
    current: 'what is the oldest iPhone OS the app still runs on?',
    recent: 'did the minimum supported iOS change lately?',
    old: ['which iOS release was the minimum before we went to 15?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'navigation',
    steps: [
      {
        title: 'Navigation with React Navigation 5',
        summary:
          'Screens are registered in src/navigation/root.tsx with React Navigation 5 stack navigators.',
        files: ['src/navigation/root.tsx'],
        daysAgo: 210,
      },
      {
        title: 'Navigation moved to Expo Router',
        summary: 'We moved from React Navigation to Expo Router: screens are files under app/ now.',
        files: ['app/_layout.tsx'],
        daysAgo: 28,
      },
    ],
    current: 'how are screens routed in the app?',
    recent: 'what changed with app navigation recently?',
    old: ['how were screens registered before Expo Router?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'analytics',
    steps: [
      {
        title: 'Analytics events go to Mixpanel',
        summary: 'track() in src/analytics.ts sends events to Mixpanel.',
        files: ['src/analytics.ts'],
        daysAgo: 190,
      },
      {
        title: 'Analytics switched to PostHog',
        summary:
          'Analytics moved from Mixpanel to PostHog for session replay; track() now calls posthog.capture.',
        files: ['src/analytics.ts'],
        daysAgo: 16,
      },
    ],
    current: 'which analytics service receives app events?',
    recent: 'what changed about product analytics recently?',
    old: ['where did tracking events go before PostHog?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'api base url',
    steps: [
      {
        title: 'App calls api.shop.example.com',
        summary: 'The API base URL is https://api.shop.example.com/v1 in src/api/client.ts.',
        files: ['src/api/client.ts'],
        daysAgo: 230,
      },
      {
        title: 'App calls the v2 API',
        summary: 'The base URL is now https://api.shop.example.com/v2; v1 is deprecated.',
        files: ['src/api/client.ts'],
        daysAgo: 40,
      },
      {
        title: 'App goes through the edge gateway',
        summary:
          'The app no longer calls the API host directly: requests go to https://edge.shop.example.com/api/v2.',
        files: ['src/api/client.ts'],
        daysAgo: 6,
      },
    ],
    current: 'what host does the app send API requests to?',
    recent: 'what is the latest change to the API endpoint the app uses?',
    old: ['which API version did the app use before v2?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'push notifications',
    steps: [
      {
        title: 'Push notifications through OneSignal',
        summary: 'Push tokens are registered with OneSignal in src/push/register.ts.',
        files: ['src/push/register.ts'],
        daysAgo: 180,
      },
      {
        title: 'Push notifications sent with Expo push service',
        summary:
          'We dropped OneSignal and send pushes through the Expo push service; tokens are stored by the API.',
        files: ['src/push/register.ts'],
        daysAgo: 21,
      },
    ],
    current: 'which service delivers push notifications to phones?',
    recent: 'what changed about push notifications lately?',
    old: ['what did we use for push before Expo?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'image cache size',
    steps: [
      {
        title: 'Image cache limit',
        summary: 'The image cache is capped at 100 MB on device.',
        facts: ['maxDiskSize: 100 MB'],
        files: ['src/images/cache.ts'],
        daysAgo: 130,
      },
      {
        title: 'Image cache limit lowered',
        summary: 'The image cache cap is now 50 MB after complaints about storage use.',
        facts: ['maxDiskSize: 50 MB'],
        files: ['src/images/cache.ts'],
        daysAgo: 13,
      },
    ],
    current: 'how much disk may the image cache use on a phone?',
    recent: 'did we change how much storage images take recently?',
    old: ['what was the image cache cap before the storage complaints?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'test runner',
    steps: [
      {
        title: 'Unit tests run with Jest',
        summary: 'npm test runs Jest with the react-native preset.',
        files: ['jest.config.js'],
        daysAgo: 260,
      },
      {
        title: 'Unit tests moved to Vitest',
        summary:
          'We moved the unit tests from Jest to Vitest; jest.config.js was deleted and vitest.config.ts added.',
        files: ['vitest.config.ts'],
        daysAgo: 33,
      },
    ],
    current: 'which runner executes the unit tests?',
    recent: 'what changed about running unit tests recently?',
    old: ['what ran the unit tests before Vitest?', 0],
  },
  {
    project: 'mobile-app',
    subject: 'release channel',
    steps: [
      {
        title: 'Builds shipped with App Center',
        summary: 'Beta builds are distributed through Microsoft App Center.',
        files: ['.github/workflows/release.yml'],
        daysAgo: 300,
      },
      {
        title: 'Builds shipped with EAS',
        summary:
          'App Center was retired, so builds and beta distribution now use Expo EAS Build and Submit.',
        files: ['eas.json', '.github/workflows/release.yml'],
        daysAgo: 55,
      },
    ],
    current: 'how do we distribute beta builds to testers?',
    recent: 'what changed about app releases recently?',
    old: ['what did we distribute betas with before EAS?', 0],
  },
  {
    project: 'shop-api',
    subject: 'log level',
    steps: [
      {
        title: 'Production log level is debug',
        summary: 'LOG_LEVEL=debug in production to chase the checkout bug.',
        facts: ['LOG_LEVEL: debug'],
        files: ['deploy/prod.env'],
        daysAgo: 35,
      },
      {
        title: 'Production log level back to info',
        summary: 'LOG_LEVEL is info again in production: debug logs cost too much in Datadog.',
        facts: ['LOG_LEVEL: info'],
        files: ['deploy/prod.env'],
        daysAgo: 4,
      },
    ],
    current: 'how verbose are the production logs?',
    recent: 'what did we change about production logging lately?',
    old: ['what log level did production use while chasing the checkout bug?', 0],
  },
  {
    project: 'shop-api',
    subject: 'max upload size',
    steps: [
      {
        title: 'Upload size limit is 5 MB',
        summary: 'Multer rejects uploads over 5 MB with 413.',
        facts: ['maxFileSize: 5 MB'],
        files: ['src/uploads/middleware.ts'],
        daysAgo: 100,
      },
      {
        title: 'Upload size limit is 20 MB',
        summary: 'Uploads may be up to 20 MB now that product videos are allowed.',
        facts: ['maxFileSize: 20 MB'],
        files: ['src/uploads/middleware.ts'],
        daysAgo: 8,
      },
    ],
    current: 'how large can an uploaded file be before the API refuses it?',
    recent: 'what changed with upload limits recently?',
    old: ['what was the upload cap before videos were allowed?', 0],
  },
  {
    project: 'data-pipeline',
    subject: 'sample rate',
    steps: [
      {
        title: 'Clickstream sampled at 10 %',
        summary: 'The clickstream job keeps a 10 % sample of events.',
        facts: ['sample_rate: 10 %'],
        files: ['jobs/clickstream.py'],
        daysAgo: 95,
      },
      {
        title: 'Clickstream sampled at 25 %',
        summary: 'The sample rate is now 25 % to support funnel analysis.',
        facts: ['sample_rate: 25 %'],
        files: ['jobs/clickstream.py'],
        daysAgo: 30,
      },
      {
        title: 'Clickstream kept in full',
        summary:
          'Sampling is off: the clickstream job keeps 100 % of events since storage moved to BigQuery.',
        facts: ['sample_rate: 100 %'],
        files: ['jobs/clickstream.py'],
        daysAgo: 3,
      },
    ],
    current: 'what fraction of clickstream events do we keep?',
    recent: 'what is the latest change to clickstream sampling?',
    old: ['what clickstream sample rate did funnel analysis start with?', 1],
  },
  {
    project: 'mobile-app',
    subject: 'crash reporting',
    steps: [
      {
        title: 'Crashes reported with Crashlytics',
        summary: 'Native crashes go to Firebase Crashlytics.',
        files: ['src/observability/crash.ts'],
        daysAgo: 200,
      },
      {
        title: 'Crash reporting moved to Sentry',
        summary:
          'We replaced Crashlytics with Sentry React Native so JS and native crashes are in one place.',
        files: ['src/observability/crash.ts'],
        daysAgo: 27,
      },
    ],
    current: 'where do app crash reports go?',
    recent: 'what changed with crash reporting in the app?',
    old: ['what collected app crashes before Sentry?', 0],
  },
];

/** Other subjects of the same projects: no chain prompt asks for them. */
export const DISTRACTORS: readonly Distractor[] = [
  {
    project: 'shop-api',
    title: 'Invoice PDFs rendered with pdfkit',
    summary:
      'src/invoices/render.ts draws invoices with pdfkit; fonts are embedded from assets/fonts.',
    files: ['src/invoices/render.ts'],
    daysAgo: 70,
  },
  {
    project: 'shop-api',
    title: 'Checkout totals round half to even',
    summary: 'Money math uses banker rounding in src/money/round.ts so totals match the ledger.',
    files: ['src/money/round.ts'],
    daysAgo: 33,
  },
  {
    project: 'shop-api',
    title: 'Orders API returns 409 on duplicate idempotency keys',
    summary: 'A repeated Idempotency-Key with a different body answers 409.',
    files: ['src/http/idempotency.ts'],
    daysAgo: 12,
  },
  {
    project: 'shop-api',
    title: 'Webhook signatures verified over the raw body',
    summary:
      'The Stripe webhook route uses express.raw so the signature check sees the exact bytes.',
    files: ['src/webhooks/stripe.ts'],
    daysAgo: 48,
  },
  {
    project: 'shop-api',
    title: 'Feature flags in LaunchDarkly',
    summary: 'Flags are evaluated server side with the LaunchDarkly SDK; flag keys are kebab-case.',
    files: ['src/flags.ts'],
    daysAgo: 90,
  },
  {
    project: 'shop-api',
    title: 'Migrations must be backwards compatible',
    summary:
      'Deploys run migrations before the new code, so a migration never drops a column the old code reads.',
    files: ['docs/migrations.md'],
    daysAgo: 140,
  },
  {
    project: 'shop-api',
    title: 'Search uses Postgres full text',
    summary: 'Product search is a tsvector column with a GIN index; no external search engine.',
    files: ['src/search/products.ts'],
    daysAgo: 60,
  },
  {
    project: 'shop-api',
    title: 'CI runs on GitHub Actions',
    summary:
      'Lint, tests and the Docker build run in .github/workflows/ci.yml on every pull request.',
    files: ['.github/workflows/ci.yml'],
    daysAgo: 110,
  },
  {
    project: 'shop-api',
    title: 'Prices stored in cents as integers',
    summary: 'Every amount column is an integer number of cents to avoid float errors.',
    files: ['prisma/schema.prisma'],
    daysAgo: 25,
  },
  {
    project: 'shop-api',
    title: 'Timeout on the inventory service call',
    summary: 'GET /inventory occasionally takes 12 s; the call is wrapped in a circuit breaker.',
    files: ['src/inventory/client.ts'],
    daysAgo: 17,
  },
  {
    project: 'data-pipeline',
    title: 'Dedup of orders by order_id and updated_at',
    summary: 'The orders transform keeps the latest row per order_id by updated_at.',
    files: ['transforms/orders.py'],
    daysAgo: 44,
  },
  {
    project: 'data-pipeline',
    title: 'Timezone of event timestamps is UTC',
    summary: 'All event timestamps are stored in UTC; reports convert to Europe/Berlin.',
    files: ['transforms/events.py'],
    daysAgo: 88,
  },
  {
    project: 'data-pipeline',
    title: 'Backfills run with a date range flag',
    summary: 'python -m pipeline.backfill --start 2024-01-01 --end 2024-02-01 replays a range.',
    files: ['pipeline/backfill.py'],
    daysAgo: 19,
  },
  {
    project: 'data-pipeline',
    title: 'Great Expectations checks on the orders table',
    summary: 'Null and uniqueness checks run after each load; a failure stops downstream models.',
    files: ['checks/orders.yml'],
    daysAgo: 64,
  },
  {
    project: 'data-pipeline',
    title: 'Customer emails hashed before loading',
    summary: 'PII: emails are SHA-256 hashed with a salt in the customers transform.',
    files: ['transforms/customers.py'],
    daysAgo: 101,
  },
  {
    project: 'data-pipeline',
    title: 'Slow query on the sessions model fixed with clustering',
    summary:
      'The sessions model is clustered by user_id; the daily report went from 6 min to 50 s.',
    files: ['models/sessions.sql'],
    daysAgo: 9,
  },
  {
    project: 'mobile-app',
    title: 'Deep links handled by the app scheme shop://',
    summary:
      'shop://product/<id> opens the product screen; universal links map to the same routes.',
    files: ['app/product/[id].tsx'],
    daysAgo: 36,
  },
  {
    project: 'mobile-app',
    title: 'Dark mode follows the system setting',
    summary: 'useColorScheme picks the theme; there is no in-app toggle.',
    files: ['src/theme.ts'],
    daysAgo: 75,
  },
  {
    project: 'mobile-app',
    title: 'Offline cart kept in AsyncStorage',
    summary: 'The cart is persisted to AsyncStorage and synced when the app is back online.',
    files: ['src/features/cart/persist.ts'],
    daysAgo: 58,
  },
  {
    project: 'mobile-app',
    title: 'Fonts loaded with expo-font before the splash hides',
    summary: 'The splash screen stays until Inter is loaded, avoiding a flash of system font.',
    files: ['app/_layout.tsx'],
    daysAgo: 23,
  },
  {
    project: 'mobile-app',
    title: 'Accessibility labels on every button',
    summary: 'A lint rule requires accessibilityLabel on Pressable components.',
    files: ['.eslintrc.js'],
    daysAgo: 95,
  },
  {
    project: 'mobile-app',
    title: 'Android back button closes modals first',
    summary:
      'A BackHandler listener in the modal stack closes the top modal before navigating back.',
    files: ['src/navigation/modals.tsx'],
    daysAgo: 14,
  },
];

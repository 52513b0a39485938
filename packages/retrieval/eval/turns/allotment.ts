import { moreRecords } from './more.ts';
import { prompts, sessions } from './set.ts';

/** A Django site where members of a community garden book plots and tools. */
export const ALLOTMENT_RECORDS = [
  ...moreRecords('allotment'),
  ...sessions('allotment', [
    {
      id: 'al-s1',
      daysAgo: 60,
      turns: [
        {
          ask: 'two members booked the same plot for saturday, how is that possible',
          reply:
            'book_plot() checks for an existing booking and then inserts, in two queries. Two requests a few milliseconds apart both pass the check.',
          files: ['garden/bookings/services.py'],
          key: 'al-race-cause',
        },
        {
          ask: 'how do we make that impossible?',
          reply:
            'A unique constraint on (plot, date) in the Booking model plus catching IntegrityError to show "already taken". The database enforces it whatever the code does.',
          key: 'al-race-options',
        },
        {
          ask: 'go ahead',
          reply:
            'Added UniqueConstraint(fields=["plot", "day"], name="one_booking_per_plot_day") and migration 0014; the view turns IntegrityError into a form error.',
          files: [
            'garden/bookings/models.py',
            'garden/bookings/migrations/0014_unique_plot_day.py',
            'garden/bookings/views.py',
          ],
          ran: ['python manage.py test bookings passed'],
          key: 'al-race-fix',
        },
        {
          ask: 'will the migration fail on prod with the duplicate that is already there?',
          reply:
            'Yes, it would. I added a data migration 0013 before it that keeps the earliest booking of each duplicate pair and emails the other member.',
          files: ['garden/bookings/migrations/0013_dedupe_bookings.py'],
          key: 'al-dedupe',
        },
      ],
    },
    {
      id: 'al-s2',
      daysAgo: 45,
      turns: [
        {
          ask: 'the committee wants reminder emails the evening before a booking',
          reply:
            'We have no task queue yet. Options: Celery with Redis, django-q with the database as broker, or a cron job running a management command.',
          key: 'al-reminder-options',
        },
        {
          ask: 'we are on a tiny vps, what is the least moving parts?',
          reply:
            'The cron job: a send_reminders management command at 18:00 daily. No broker, no worker process to babysit.',
          key: 'al-reminder-choice',
        },
        {
          ask: 'ok write it',
          reply:
            "send_reminders picks tomorrow's bookings with reminded_at null, sends one email each, and sets reminded_at so a rerun sends nothing twice. Crontab line is in deploy/crontab.",
          files: ['garden/bookings/management/commands/send_reminders.py', 'deploy/crontab'],
          key: 'al-reminder-command',
        },
        {
          ask: 'which mail provider are we using again',
          reply:
            'Postmark, through django-anymail; the server token is POSTMARK_SERVER_TOKEN in the environment.',
          files: ['garden/settings/prod.py'],
          key: 'al-mail-provider',
        },
      ],
    },
    {
      id: 'al-s3',
      daysAgo: 30,
      turns: [
        { ask: 'the tool shed page is slow' },
        {
          ask: 'it takes like 4 seconds to load',
          reply:
            'The template loops over tools and reads tool.current_loan for each one: 310 queries for 300 tools. Classic N+1.',
          files: ['garden/tools/templates/tools/list.html'],
          key: 'al-n-plus-one',
        },
        {
          ask: 'fix',
          reply:
            'The view now uses prefetch_related with a Prefetch of open loans to_attr="open_loans"; the page makes 3 queries and renders in 120 ms.',
          files: ['garden/tools/views.py'],
          key: 'al-prefetch',
        },
        {
          ask: 'can we catch this kind of thing automatically',
          reply:
            'Added django-debug-toolbar for local runs and an assertNumQueries(3) test on the tool list, so a new N+1 fails CI.',
          files: ['garden/tools/tests/test_views.py', 'requirements/dev.txt'],
          key: 'al-query-test',
        },
      ],
    },
    {
      id: 'al-s4',
      daysAgo: 21,
      turns: [
        {
          ask: 'the treasurer asked whether we can take plot fees online',
          reply:
            'Stripe Checkout is simplest: a hosted page, no card data on our server. GoCardless suits yearly direct debits better and costs 1% capped at £4.',
          key: 'al-fees-options',
        },
        {
          ask: 'they want direct debit, most people pay once a year',
          reply:
            'Then GoCardless: a mandate per member, a yearly payment on 1 April. I sketched the flow in docs/payments.md and left the keys out.',
          files: ['docs/payments.md'],
          key: 'al-fees-choice',
        },
        {
          ask: 'what happens if a payment fails',
          reply:
            "GoCardless retries once after 3 days by itself; we get a payments.failed webhook and mark the membership overdue, with a banner on the member's page.",
          key: 'al-fees-failed',
        },
      ],
    },
    {
      id: 'al-s5',
      daysAgo: 9,
      turns: [
        {
          ask: 'upgrade django',
          reply:
            'Went from 4.2 to 5.1. One break: the old CSRF_COOKIE_MASKED setting is gone; removed it from settings/base.py.',
          files: ['requirements/base.txt', 'garden/settings/base.py'],
          ran: ['python manage.py test passed'],
          key: 'al-django-upgrade',
        },
        {
          ask: 'anything else we should know?',
          reply:
            'Forms now render with div templates by default; our crispy-forms layouts are unaffected, but the two plain forms in accounts/ look slightly different.',
          key: 'al-django-forms',
        },
        {
          ask: 'and python?',
          reply:
            'Django 5.1 needs Python 3.10 or newer; the VPS has 3.11, CI used 3.9, so I bumped CI to 3.11.',
          files: ['.github/workflows/ci.yml'],
          key: 'al-python-version',
        },
      ],
    },
    {
      id: 'al-s6',
      daysAgo: 3,
      turns: [
        {
          ask: 'two members booked the same plot again??',
          reply:
            'Not the same bug: the constraint holds. These two bookings are for the same plot on different days, but the calendar shows a booking across midnight because the day is stored in UTC.',
          key: 'al-timezone-cause',
        },
        {
          ask: 'so what now',
          reply:
            'Booking.day is now a DateField computed in Europe/London from the form, and the calendar renders dates with the site timezone. Existing rows were converted by migration 0019.',
          files: ['garden/bookings/models.py', 'garden/bookings/migrations/0019_local_day.py'],
          key: 'al-timezone-fix',
        },
      ],
    },
  ]),
];

export const ALLOTMENT_PROMPTS = prompts('allotment', [
  [['paraphrase'], 'how could the same plot end up reserved twice', ['al-race-cause']],
  [['reply', 'exact'], 'what is the name of the unique constraint on bookings', ['al-race-fix']],
  [['reply'], 'what did we do with the duplicate bookings already in the database', ['al-dedupe']],
  [
    ['reply', 'paraphrase'],
    'how do the evening-before reminders get sent',
    ['al-reminder-command', 'al-reminder-choice'],
  ],
  [['reply'], 'why did we not use celery for the reminders', ['al-reminder-choice']],
  [['exact'], 'where is POSTMARK_SERVER_TOKEN used', ['al-mail-provider']],
  [['reply', 'paraphrase'], 'why was the tool shed page taking seconds to load', ['al-n-plus-one']],
  [['reply', 'exact'], 'what prefetch did we add to the tools view', ['al-prefetch']],
  [['reply'], 'is there a test that catches too many queries', ['al-query-test']],
  [['reply'], 'how will members pay their plot fee', ['al-fees-choice']],
  [
    ['reply', 'paraphrase'],
    "what do we do when a member's direct debit bounces",
    ['al-fees-failed'],
  ],
  [['exact'], 'what broke when we moved to django 5.1', ['al-django-upgrade']],
  [['reply'], 'which python version does CI run now', ['al-python-version']],
  [
    ['reply', 'paraphrase'],
    'why do some signup forms look different since the upgrade',
    ['al-django-forms'],
  ],
  [
    ['sibling', 'date'],
    'what was wrong with the double booking we saw a few days ago',
    ['al-timezone-cause'],
  ],
  [['sibling'], 'why did the first double booking happen back in the autumn', ['al-race-cause']],
  [['reply', 'paraphrase'], 'which timezone are booking days stored in', ['al-timezone-fix']],
  [
    ['paraphrase'],
    'how much does the direct debit provider charge per payment',
    ['al-fees-options'],
  ],
]);

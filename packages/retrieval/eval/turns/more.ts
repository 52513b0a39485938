import { type Session, sessions, type TurnsProject } from './set.ts';

/**
 * The rest of each project's conversations: turns no prompt asks about, on the same
 * subjects as the ones they do (the look-alikes a ranker must see past), and the short
 * turns every real session has ("run the tests", "commit it").
 */
const t = (ask: string, reply?: string, files?: string[]) => ({
  ask,
  ...(reply === undefined ? {} : { reply }),
  ...(files === undefined ? {} : { files }),
});

const MORE: Record<TurnsProject, Session[]> = {
  ticker: [
    {
      id: 'tk-m1',
      daysAgo: 38,
      turns: [
        t(
          'add a metric for connected clients',
          'Added feed_clients_connected gauge and feed_frames_sent_total counter, exported on :9090/metrics.',
          ['internal/feed/metrics.go'],
        ),
        t(
          'and one for dropped frames',
          'feed_frames_coalesced_total counts frames replaced before sending.',
          ['internal/feed/metrics.go'],
        ),
        t('run the tests', 'All 91 passed.'),
        t('commit it', 'Committed "feed metrics".'),
        t(
          'what does the grafana board show now',
          'Clients peak at 3,400 around the US open, frames sent about 180k per second at peak.',
        ),
      ],
    },
    {
      id: 'tk-m2',
      daysAgo: 30,
      turns: [
        t(
          'the symbol search box on the dashboard is slow',
          'It filters 48,000 symbols on every keystroke with a regex; debouncing to 150 ms and a prefix index make it instant.',
          ['web/src/search/SymbolSearch.tsx'],
        ),
        t('ok', 'Done: prefix trie built once on load, 150 ms debounce.'),
        t(
          'can it match company names too',
          'Added names to the index; typing "appl" now shows AAPL first, then APLE and APLD.',
        ),
        t('lint is failing', 'Two unused imports in SymbolSearch.tsx; removed. eslint passes.'),
      ],
    },
    {
      id: 'tk-m3',
      daysAgo: 20,
      turns: [
        t(
          'we should have a staging feed with fake prices',
          'Added a replay source: cmd/replay streams a recorded day of ticks at any speed, used by staging.',
          ['cmd/replay/main.go'],
        ),
        t('how big is a recorded day', 'About 2.1 GB of frames, 380 MB zstd-compressed.'),
        t(
          'where do we keep them',
          'gs://ticker-replays/, one object per trading day, 30 days kept.',
        ),
        t('fine', 'Noted.'),
        t(
          'is the replay deterministic',
          'Yes: ticks are replayed in file order with their original spacing divided by the speed factor.',
        ),
      ],
    },
    {
      id: 'tk-m4',
      daysAgo: 9,
      turns: [
        t(
          'upgrade go',
          'Went from 1.21 to 1.23; nothing broke. The new iterator functions are not used yet.',
          ['go.mod'],
        ),
        t(
          'and gorilla websocket?',
          'Still on gorilla/websocket 1.5.3; coder/websocket would need a rewrite of the hub for little gain.',
        ),
        t('run everything', 'go test ./... passed, race detector clean.'),
        t(
          'nice, deploy to staging',
          'Deployed image feed:2024.11.3 to staging; readiness passed in 1.2 s with the warm symbol cache.',
        ),
      ],
    },
  ],
  allotment: [
    {
      id: 'al-m1',
      daysAgo: 52,
      turns: [
        t(
          'add a waiting list for plots',
          'WaitingListEntry model with member, joined_at and preferred_size; the committee sees it in the admin, oldest first.',
          ['garden/plots/models.py'],
        ),
        t(
          'can members see their position',
          'The profile page shows "you are number 7 on the waiting list".',
        ),
        t('run the tests', 'All 142 passed.'),
        t('commit', 'Committed "plot waiting list".'),
      ],
    },
    {
      id: 'al-m2',
      daysAgo: 40,
      turns: [
        t(
          'the booking calendar looks broken on phones',
          'The month grid is a fixed 7 × 110 px table; on a 375 px screen it overflows. Switched to a CSS grid with minmax(0, 1fr).',
          ['garden/static/css/calendar.css'],
        ),
        t('and the week view?', 'Week view now stacks days vertically below 600 px.'),
        t('looks good', 'Committed.'),
        t(
          'members want to book tools too, not just plots',
          'Tool bookings reuse the Booking model with a nullable tool field and the same one-per-day rule.',
          ['garden/bookings/models.py'],
        ),
      ],
    },
    {
      id: 'al-m3',
      daysAgo: 26,
      turns: [
        t(
          'backups?',
          'There were none. A nightly pg_dump to Backblaze B2, kept 30 days, runs from deploy/backup.sh.',
          ['deploy/backup.sh'],
        ),
        t(
          'did you test a restore',
          "Restored last night's dump into a scratch database: 38 tables, row counts match.",
        ),
        t('add it to the readme', 'README has a Backups section with the restore command.'),
      ],
    },
    {
      id: 'al-m4',
      daysAgo: 12,
      turns: [
        t(
          'the admin is slow when listing members',
          'list_display called member.plots.count for each row; replaced by an annotated count.',
          ['garden/accounts/admin.py'],
        ),
        t(
          'export members to csv for the AGM',
          'Added an admin action "Export selected to CSV" with name, email, plot and joined date.',
          ['garden/accounts/admin.py'],
        ),
        t('run the tests', 'All 151 passed.'),
        t('thanks', 'You are welcome.'),
      ],
    },
  ],
  pantry: [
    {
      id: 'pa-m1',
      daysAgo: 62,
      turns: [
        t(
          'what can I make with leftover rice',
          'Egg fried rice with frozen peas, rice pudding, or arancini if you have mozzarella.',
        ),
        t('fried rice it is', 'Use day-old rice, a very hot pan, and add the egg last.'),
        t(
          'how long does cooked rice keep',
          'Up to a day in the fridge, cooled within an hour; reheat once, until steaming.',
        ),
      ],
    },
    {
      id: 'pa-m2',
      daysAgo: 47,
      turns: [
        t(
          'plan dinners for this week',
          'Monday pasta e fagioli, Tuesday chicken fajitas, Wednesday fish pie, Thursday dal, Friday pizza.',
        ),
        t('Maya will not eat the fish pie', 'Swapped Wednesday to a cottage pie.'),
        t('shopping list please', '27 items, about £58.'),
        t('thanks', 'Enjoy!'),
      ],
    },
    {
      id: 'pa-m3',
      daysAgo: 30,
      turns: [
        t(
          'Theo wants cookies for his class party',
          'Oat and raisin cookies with seed butter instead of peanut; check every label for "may contain".',
        ),
        t('how many for 28 kids', 'A double batch makes 36.'),
        t('bake time?', '12 minutes at 180°C, until the edges are golden.'),
      ],
    },
    {
      id: 'pa-m4',
      daysAgo: 16,
      turns: [
        t(
          'we are low on freezer space',
          'Batch-cooked portions in flat bags stack better than tubs; label each with the date.',
        ),
        t(
          'what should I batch cook this sunday',
          'Bolognese base (8 portions), chickpea curry (6), and a tray of flapjacks with the nut-free oats.',
        ),
        t('how much will that cost', "About £24, within this week's £105."),
        t('ok', 'Shopping list sent.'),
      ],
    },
  ],
  voyage: [
    {
      id: 'vo-m1',
      daysAgo: 84,
      turns: [
        t(
          'what is the weather like in Lisbon in July',
          'Highs around 28°C, very little rain, the Atlantic stays cool at 19°C.',
        ),
        t('and the Algarve', 'Hotter inland, about 30°C on the coast, sea around 21°C.'),
        t(
          'do we need travel insurance',
          'Yes: a family annual policy covers both kids; your GHIC card covers state healthcare but not repatriation.',
        ),
      ],
    },
    {
      id: 'vo-m2',
      daysAgo: 70,
      turns: [
        t('book the Oceanário', 'Tickets for Tuesday 15 July at 10:00, family ticket €60.'),
        t(
          'and the tram',
          'Tram 28 needs no booking; board at Martim Moniz before 9 to get a seat.',
        ),
        t(
          'what else is good for kids in lisbon',
          'Pavilhão do Conhecimento (science museum) and the cable car at Parque das Nações.',
        ),
        t('great', 'Added them to the plan.'),
      ],
    },
    {
      id: 'vo-m3',
      daysAgo: 44,
      turns: [
        t(
          'Mia has a dentist appointment on the 20th',
          'Noted: 20 June, 16:10 at the Parkside practice.',
        ),
        t(
          'and her school report came',
          'Congratulations on the report! You mentioned her reading level jumped two bands.',
        ),
        t(
          'what should we do for her birthday',
          'She turns 11 on 2 August, after the trip: a pool party or a climbing session were the two ideas.',
        ),
      ],
    },
    {
      id: 'vo-m4',
      daysAgo: 12,
      turns: [
        t(
          'packing list',
          'Sun cream, hats, swim stuff, adaptors (Type F), the booster seat, snorkel sets, and printed villa confirmation.',
        ),
        t(
          'do we need euros in cash',
          'Cards work almost everywhere; €100 in cash for markets and tips is plenty.',
        ),
        t(
          'what about phones',
          "Your UK plan includes EU roaming at £2 a day; the kids' phones do not, so turn roaming off on theirs.",
        ),
        t('thanks', 'Have a great trip.'),
      ],
    },
  ],
  darkroom: [
    {
      id: 'dr-m1',
      daysAgo: 44,
      turns: [
        t(
          'add a histogram to the editor',
          'Live histogram with CIAreaHistogram on a 256 px proxy, drawn with Metal; costs 0.8 ms per frame.',
          ['Darkroom/Editing/Histogram.swift'],
        ),
        t(
          'can it show clipping',
          'Red and blue overlays mark clipped highlights and shadows when you hold the histogram.',
        ),
        t('run the tests', 'xcodebuild test: 212 passed.'),
      ],
    },
    {
      id: 'dr-m2',
      daysAgo: 33,
      turns: [
        t(
          'the crop tool should snap to common ratios',
          'Snaps to 1:1, 4:5, 3:2, 16:9 within 2 percent; a haptic tick on snap.',
          ['Darkroom/Editing/CropTool.swift'],
        ),
        t('and rotate by 90', 'Rotate button turns the crop rectangle and swaps the ratio.'),
        t(
          'the straighten slider is too sensitive',
          'Range is now ±15° with a 0.1° step and a fine mode when you drag slowly.',
        ),
        t('commit', 'Committed "crop ratios and straighten".'),
      ],
    },
    {
      id: 'dr-m3',
      daysAgo: 22,
      turns: [
        t(
          'subscriptions',
          'StoreKit 2 with two products: monthly £2.99 and yearly £19.99, a 7 day trial on the yearly one.',
          ['Darkroom/Store/Store.swift'],
        ),
        t(
          'how do we check entitlement',
          'Transaction.currentEntitlements at launch and on updates; cached in the keychain for offline use.',
        ),
        t(
          'paywall copy',
          'Title "Develop without limits", three bullets: film presets, RAW support, no watermark.',
        ),
      ],
    },
    {
      id: 'dr-m4',
      daysAgo: 4,
      turns: [
        t(
          'RAW files are slow to open',
          'CIRAWFilter decodes the full 48 MP image; we now decode at screen size for editing and full size only on export.',
          ['Darkroom/Editing/RawLoader.swift'],
        ),
        t('how much faster', 'Open time went from 2.4 s to 0.6 s on an iPhone 13.'),
        t('ship it', 'In build 1.4 (214).'),
      ],
    },
  ],
  beacon: [
    {
      id: 'bc-m1',
      daysAgo: 40,
      turns: [
        t(
          'add an alert for ingest errors',
          'Alert IngestErrorsHigh fires when errors exceed 1% of messages for 10 minutes, to #beacon-alerts.',
          ['alerts/ingest.yaml'],
        ),
        t(
          'and for clickhouse replication',
          'ReplicaDelayHigh fires when absolute_delay passes 300 s on any replica.',
          ['alerts/clickhouse.yaml'],
        ),
        t('test them', 'promtool test rules passed for both.'),
      ],
    },
    {
      id: 'bc-m2',
      daysAgo: 28,
      turns: [
        t(
          'the funnel query takes 40 seconds',
          'It scans events for 90 days without the partition key; adding WHERE ts >= now() - INTERVAL 30 DAY and using windowFunnel brings it to 1.8 s.',
          ['grafana/dashboards/product.json'],
        ),
        t(
          'can we precompute it',
          'A daily funnel_mv aggregates steps per user per day; the panel reads it in 90 ms.',
          ['clickhouse/migrations/029_funnel_mv.sql'],
        ),
        t('ok', 'Done.'),
      ],
    },
    {
      id: 'bc-m3',
      daysAgo: 18,
      turns: [
        t(
          'kafka broker 3 restarted overnight',
          'OOM-killed: the page cache plus a 12 GB heap exceeded the 16 GB limit. Heap lowered to 6 GB, which is what Kafka recommends.',
          ['k8s/kafka/statefulset.yaml'],
        ),
        t(
          'any data lost',
          'No: replication factor 3 and min.insync.replicas 2, producers use acks=all.',
        ),
        t(
          'write a postmortem',
          'docs/postmortems/broker-3-oom.md, with the timeline and the heap change.',
        ),
      ],
    },
    {
      id: 'bc-m4',
      daysAgo: 9,
      turns: [
        t(
          'upgrade clickhouse',
          'From 23.8 to 24.3 LTS on one replica first; queries and merges fine after 24 hours.',
        ),
        t(
          'do the other one',
          'Both replicas on 24.3; the analyzer is off for now because two dashboards use old JOIN syntax.',
        ),
        t('thanks', 'Sure.'),
      ],
    },
  ],
};

/** The extra records of one project. */
export const moreRecords = (project: TurnsProject) => sessions(project, MORE[project]);

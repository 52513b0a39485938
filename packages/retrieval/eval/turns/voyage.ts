import { moreRecords } from './more.ts';
import { prompts, sessions } from './set.ts';

/** A personal assistant conversation: planning a family trip to Portugal, and life around it. */
export const VOYAGE_RECORDS = [
  ...moreRecords('voyage'),
  ...sessions('voyage', [
    {
      id: 'vo-s1',
      daysAgo: 90,
      turns: [
        {
          ask: 'we are thinking about Portugal for two weeks in July with the kids',
          reply:
            'Lovely. Lisbon is hilly and hot in July; many families split the time between Lisbon and the Algarve coast. How old are the kids?',
          key: 'vo-idea',
        },
        {
          ask: '7 and 11',
          reply:
            'Then 5 nights in Lisbon (Oceanário, tram 28 early in the morning, Belém) and 9 by the sea near Lagos, where the beaches are sheltered coves.',
          key: 'vo-split',
        },
        {
          ask: 'how do we get from one to the other',
          reply:
            'The train from Lisboa Oriente to Tunes and a change to Lagos takes about 4 hours; a hire car does it in 3 and you will want one in the Algarve anyway.',
          key: 'vo-transfer',
        },
      ],
    },
    {
      id: 'vo-s2',
      daysAgo: 76,
      turns: [
        {
          ask: 'found two flights, TAP direct at 7:05 for £1,240 or easyJet at 13:40 for £890',
          reply:
            'With kids the 13:40 is kinder and £350 cheaper; easyJet luggage for four adds about £160, so the real gap is £190.',
          key: 'vo-flight-options',
        },
        {
          ask: 'booked the easyjet one',
          reply:
            'Noted: easyJet EZY8903 Gatwick to Lisbon, Saturday 12 July at 13:40, back from Faro on Saturday 26 July at 17:15. Two large bags.',
          key: 'vo-flights',
        },
        {
          ask: 'and the apartment in lisbon?',
          reply:
            'You shortlisted the Alfama one (lift, AC, £145 a night) and the Príncipe Real one (no lift, fourth floor). With a 7 year old and suitcases, the Alfama one.',
          key: 'vo-lisbon-flat',
        },
      ],
    },
    {
      id: 'vo-s3',
      daysAgo: 61,
      turns: [
        {
          ask: 'my mum might join us for the algarve part',
          reply:
            'Then the villa needs a ground-floor bedroom; the Luz villa you liked has one, the Burgau one does not.',
          key: 'vo-mum-villa',
        },
        {
          ask: 'she confirmed!',
          reply:
            'Great. Booked note: Casa Azul in Praia da Luz, 19 to 26 July, ground-floor room for your mum, pool fenced. Deposit £600 paid, balance due 12 June.',
          key: 'vo-villa-booked',
        },
        {
          ask: 'she is flying from Manchester',
          reply:
            'Jet2 flies Manchester to Faro on Saturdays; the 19 July flight lands at 11:20, you could pick her up on the way from Lisbon.',
          key: 'vo-mum-flight',
        },
      ],
    },
    {
      id: 'vo-s4',
      daysAgo: 35,
      turns: [
        {
          ask: 'my passport expires in October, is that a problem',
          reply:
            'For Portugal a UK passport must be less than 10 years old on the day you enter and valid for 3 months after the day you leave. Leaving 26 July, October is too close if it expires before 26 October.',
          key: 'vo-passport-rule',
        },
        {
          ask: 'it expires on the 3rd',
          reply:
            'Then renew now. The online renewal takes about 3 weeks; the fast track appointment costs £178 if it gets tight.',
          key: 'vo-passport-renew',
        },
        {
          ask: 'applied today',
          reply:
            'Noted: renewal applied for on 9 June, reference PEX-2281-0946. I will ask about it at the end of the month.',
          key: 'vo-passport-applied',
        },
      ],
    },
    {
      id: 'vo-s5',
      daysAgo: 19,
      turns: [
        {
          ask: 'Leo has a swimming gala on the 5th, can you remind me what he needs',
          reply:
            'Club swimsuit, two caps, goggles and a spare pair, a towel, and a snack that is not chocolate. Arrive by 8:30 for warm up.',
          key: 'vo-gala',
        },
        {
          ask: 'he came second in the 50m backstroke!',
          reply:
            'Brilliant! That is his best result yet, 41.2 seconds, three seconds faster than the spring gala.',
          key: 'vo-gala-result',
        },
        {
          ask: 'what should we get him',
          reply:
            'He mentioned snorkel gear for the trip. A mask and snorkel set for his age is about £25.',
          key: 'vo-gift',
        },
      ],
    },
    {
      id: 'vo-s6',
      daysAgo: 6,
      turns: [
        {
          ask: 'the passport came',
          reply: 'Great, 24 days in the end. You are all set for the 12 July flight.',
          key: 'vo-passport-arrived',
        },
        {
          ask: 'do we need anything for the car hire',
          reply:
            "Your driving licence, a credit card in the driver's name for the £1,000 deposit, and the Via Verde toll transponder (€1.85 a day) for the Algarve motorway, which has no toll booths.",
          key: 'vo-car-hire',
        },
        {
          ask: 'and a child seat?',
          reply:
            'The 7 year old needs a booster seat in Portugal until 135 cm; the hire company charges €8 a day, or bring a backless booster.',
          key: 'vo-booster',
        },
      ],
    },
  ]),
];

export const VOYAGE_PROMPTS = prompts('voyage', [
  [['chat', 'reply'], 'how many nights in Lisbon and how many by the beach', ['vo-split']],
  [
    ['chat', 'reply', 'paraphrase'],
    'what is the best way to travel between the capital and the coast',
    ['vo-transfer'],
  ],
  [['chat', 'reply', 'exact'], 'what is our flight number to Lisbon', ['vo-flights']],
  [['chat', 'date', 'reply'], 'what time do we fly home on the 26th', ['vo-flights']],
  [['chat', 'paraphrase'], 'why did we pick the afternoon flight', ['vo-flight-options']],
  [['chat', 'reply'], 'which apartment did we go with in Lisbon and why', ['vo-lisbon-flat']],
  [['chat', 'reply'], 'when is the balance due for the villa', ['vo-villa-booked']],
  [['chat', 'reply', 'paraphrase'], 'when does grandma land in Faro', ['vo-mum-flight']],
  [
    ['chat', 'paraphrase'],
    'how long must my passport be valid after we come back',
    ['vo-passport-rule'],
  ],
  [
    ['chat', 'reply', 'exact'],
    'what is the reference for the passport renewal',
    ['vo-passport-applied'],
  ],
  [
    ['chat', 'reply', 'date'],
    'how long did the passport take to arrive in the end',
    ['vo-passport-arrived'],
  ],
  [['chat', 'reply'], 'what time does Leo need to be at the pool for the gala', ['vo-gala']],
  [
    ['chat', 'reply', 'paraphrase'],
    "what was Leo's time in the backstroke race",
    ['vo-gala-result'],
  ],
  [['chat', 'reply'], 'what present did we think of for Leo', ['vo-gift']],
  [['chat', 'reply', 'paraphrase'], 'how do motorway tolls work in the Algarve', ['vo-car-hire']],
  [['chat', 'reply'], 'does our 7 year old need a car seat in Portugal', ['vo-booster']],
  [
    ['chat', 'sibling', 'paraphrase'],
    'which villa did we actually book for the coast',
    ['vo-villa-booked'],
  ],
  [
    ['chat', 'date'],
    'what did we talk about for the holiday back in the spring, three months ago',
    ['vo-idea', 'vo-split'],
  ],
]);

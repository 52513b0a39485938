import { moreRecords } from './more.ts';
import { prompts, sessions } from './set.ts';

/** A personal assistant conversation: meals, groceries, a child's allergy, a budget. */
export const PANTRY_RECORDS = [
  ...moreRecords('pantry'),
  ...sessions('pantry', [
    {
      id: 'pa-s1',
      daysAgo: 70,
      turns: [
        {
          ask: 'my son Theo got diagnosed with a peanut allergy today',
          reply:
            'I am sorry, that is a lot to take in. I will keep it in mind for every recipe and shopping list from now on. Did the allergist say anything about tree nuts?',
          key: 'pa-allergy',
        },
        {
          ask: 'she said tree nuts are fine for now but to avoid anything "may contain"',
          reply:
            'Understood: no peanuts, nothing labelled "may contain peanuts", tree nuts allowed. Sunflower seed butter is the usual swap for peanut butter.',
          key: 'pa-allergy-rules',
        },
        {
          ask: 'what about the epipen, how many should we have',
          reply:
            'Most allergists prescribe two auto-injectors to carry together, because a second dose is sometimes needed. Keep one set at school as well.',
          key: 'pa-epipen',
        },
      ],
    },
    {
      id: 'pa-s2',
      daysAgo: 55,
      turns: [
        {
          ask: 'plan dinners for next week, we have about 40 minutes on weeknights',
          reply:
            'Monday lentil bolognese, Tuesday sheet-pan chicken thighs with squash, Wednesday salmon rice bowls, Thursday chickpea curry, Friday homemade pizza. All under 40 minutes, none with peanuts.',
          key: 'pa-week-plan',
        },
        {
          ask: 'Maya does not eat fish',
          reply: 'Swapped Wednesday to chicken teriyaki rice bowls with the same sides.',
          key: 'pa-maya-fish',
        },
        {
          ask: 'and make a shopping list',
          reply:
            'List grouped by aisle, 31 items, estimated £64 at the usual shop. The teriyaki sauce brand we picked is peanut-free and made in a nut-free facility.',
          key: 'pa-list',
        },
      ],
    },
    {
      id: 'pa-s3',
      daysAgo: 40,
      turns: [
        {
          ask: 'we spend way too much on food',
          reply:
            'From the receipts you shared, the last 3 months averaged £612 a month, about £140 of it takeaway.',
          key: 'pa-spend',
        },
        {
          ask: 'what would be realistic',
          reply:
            'For a family of four, £450 a month is realistic if takeaway drops to twice a month and lunches are batch-cooked on Sundays.',
          key: 'pa-budget-target',
        },
        {
          ask: 'ok let us aim for that',
          reply:
            'Set a £450 monthly target, split £105 a week plus £30 for two takeaways. I will keep a running total from the receipts you send.',
          key: 'pa-budget-set',
        },
      ],
    },
    {
      id: 'pa-s4',
      daysAgo: 24,
      turns: [
        {
          ask: 'Theo has a school trip on friday and they want a packed lunch',
          reply:
            'Wholemeal wrap with hummus, cucumber and chicken, a clementine, and oat flapjacks from the batch you made. Label the box with his allergy.',
          key: 'pa-trip-lunch',
        },
        {
          ask: 'the flapjacks have a may contain warning on the oats',
          reply:
            'Then not those: his allergist ruled out "may contain". Swap for the Kelkin oat bars you bought, which are made in a nut-free facility.',
          key: 'pa-oats-warning',
        },
        {
          ask: 'thanks, and remind me what time I need to drop him',
          reply: 'The letter said 8:15 at the front gate, back at 3:30.',
          key: 'pa-trip-time',
        },
      ],
    },
    {
      id: 'pa-s5',
      daysAgo: 11,
      turns: [
        {
          ask: 'how are we doing on the budget this month',
          reply:
            'Halfway through the month at £248, slightly over the £225 pace. One takeaway so far.',
          key: 'pa-budget-mid',
        },
        {
          ask: 'why over?',
          reply: 'The birthday party supplies, £38. Without them you would be under pace.',
          key: 'pa-budget-why',
        },
        {
          ask: 'Maya wants to try being vegetarian for a month',
          reply:
            "Good timing for the budget too. Next week's plan: halloumi traybake, black bean tacos, mushroom risotto, chickpea curry again, pizza. Theo and you can add chicken to the tacos.",
          key: 'pa-maya-veg',
        },
      ],
    },
    {
      id: 'pa-s6',
      daysAgo: 4,
      turns: [
        {
          ask: 'what was that sunflower thing again',
          reply:
            'Sunflower seed butter, the peanut butter swap. The SunButter brand is made in a peanut-free plant.',
          key: 'pa-sunbutter',
        },
        {
          ask: 'do they do it in the big supermarkets?',
          reply: "Tesco and Ocado stock it; Sainsbury's only online.",
          key: 'pa-sunbutter-shops',
        },
        {
          ask: 'great. and can you do the monthly total',
          reply:
            'Last month came to £471: £21 over the £450 target, the party supplies explain most of it.',
          key: 'pa-budget-month',
        },
      ],
    },
  ]),
];

export const PANTRY_PROMPTS = prompts('pantry', [
  [
    ['chat', 'paraphrase'],
    'which foods does Theo have to avoid',
    ['pa-allergy-rules', 'pa-allergy'],
  ],
  [['chat', 'reply'], 'are tree nuts ok for my son', ['pa-allergy-rules']],
  [['chat', 'reply'], 'how many auto-injectors should Theo carry', ['pa-epipen']],
  [['chat', 'reply'], 'what did we swap in for the fish night', ['pa-maya-fish']],
  [['chat', 'paraphrase'], 'what quick weeknight dinners did you suggest', ['pa-week-plan']],
  [['chat', 'exact'], 'how much did we spend on takeaway a month', ['pa-spend']],
  [
    ['chat', 'reply', 'paraphrase'],
    'what monthly grocery budget did we agree on',
    ['pa-budget-set', 'pa-budget-target'],
  ],
  [['chat', 'reply'], 'why can Theo not have the oat flapjacks', ['pa-oats-warning']],
  [['chat', 'reply', 'date'], 'when was drop-off for the school trip', ['pa-trip-time']],
  [['chat'], 'what did I pack for the school trip lunch', ['pa-trip-lunch', 'pa-oats-warning']],
  [['chat', 'reply'], 'why were we over budget mid month', ['pa-budget-why']],
  [['chat', 'paraphrase'], 'what is Maya eating now that she gave up meat', ['pa-maya-veg']],
  [['chat', 'sibling', 'exact'], 'which brand of sunflower seed butter is safe', ['pa-sunbutter']],
  [['chat', 'reply'], 'where can I buy SunButter', ['pa-sunbutter-shops']],
  [['chat', 'date', 'reply'], 'how did last month end up on the food budget', ['pa-budget-month']],
  [['chat', 'reply', 'paraphrase'], 'which teriyaki sauce did we get', ['pa-list']],
  [
    ['chat', 'sibling', 'reply'],
    'what did the allergist say about "may contain" labels',
    ['pa-allergy-rules'],
  ],
]);

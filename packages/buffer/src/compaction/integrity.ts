/** Facts a summary chain carries: stable key/value pairs, and the keys retired on purpose. */
export interface FactState {
  facts: Readonly<Record<string, string>>;
  /** Keys marked obsolete so far (they must not come back). */
  obsolete: readonly string[];
}

/** A changed value, noted on the record. */
export interface FactChange {
  key: string;
  from: string;
  to: string;
}

export interface IntegrityResult extends FactState {
  facts: Record<string, string>;
  obsolete: string[];
  changed: FactChange[];
  /** Keys of the previous summary the summarizer lost; carried forward. */
  carried: string[];
  /** Obsolete keys the summarizer brought back; removed again. */
  revived: string[];
  /** What the check repaired, in words, for the record. */
  repairs: string[];
}

/** Caps that keep a record's metadata well under its 64 KiB. */
export const FACT_LIMITS = { facts: 100, keyChars: 100, valueChars: 300, obsolete: 100 } as const;

const clip = (text: string, max: number) => text.trim().slice(0, max);

/**
 * The integrity check of one pass: a key of the previous summary survives unless marked
 * obsolete (a lost one is carried forward), an obsolete key never comes back, a changed
 * value is allowed and noted. New keys past the cap are left out (old ones never are).
 */
export function reconcileFacts(
  previous: FactState,
  reply: { facts: Readonly<Record<string, string>>; obsolete: readonly string[] },
): IntegrityResult {
  const retiring = new Set(reply.obsolete.map((key) => clip(key, FACT_LIMITS.keyChars)));
  const retired = new Set(previous.obsolete);
  const facts: Record<string, string> = {};
  const changed: FactChange[] = [];
  const carried: string[] = [];
  const revived: string[] = [];
  const repairs: string[] = [];
  for (const [key, from] of Object.entries(previous.facts)) {
    if (retiring.has(key)) continue;
    const to = reply.facts[key];
    if (to === undefined) {
      facts[key] = from;
      carried.push(key);
    } else {
      facts[key] = clip(to, FACT_LIMITS.valueChars);
      if (facts[key] !== from) changed.push({ key, from, to: facts[key] });
    }
  }
  let leftOut = 0;
  for (const [rawKey, value] of Object.entries(reply.facts)) {
    const key = clip(rawKey, FACT_LIMITS.keyChars);
    if (key === '' || key in facts || retiring.has(key)) continue;
    if (retired.has(key)) revived.push(key);
    else if (Object.keys(facts).length >= FACT_LIMITS.facts) leftOut++;
    else facts[key] = clip(value, FACT_LIMITS.valueChars);
  }
  for (const key of carried)
    repairs.push(`kept "${key}": the summarizer dropped it without marking it obsolete`);
  for (const key of revived)
    repairs.push(`removed "${key}" again: it was marked obsolete on an earlier pass`);
  if (leftOut > 0)
    repairs.push(`left out ${leftOut} new facts over the cap of ${FACT_LIMITS.facts}`);
  const obsolete = [...new Set([...previous.obsolete, ...retiring])]
    .filter((key) => key !== '' && !(key in facts))
    .slice(-FACT_LIMITS.obsolete);
  return { facts, obsolete, changed, carried, revived, repairs };
}

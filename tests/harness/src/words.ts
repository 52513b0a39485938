// Words as the evaluations count them when they judge whether a record says anything its
// prompt did not (the retrieval eval's re-ask echoes, the replay's question-only records).

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text, lower-cased, one-letter words left out. */
export const words = (text: string): string[] =>
  (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1);

/**
 * Words that carry no content of their own: the labels extractors frame a request with
 * ("Request:", "Outcome:", "No tools were used") and common function words.
 */
export const FRAMING_WORDS: ReadonlySet<string> = new Set(
  (
    'request outcome asked asks user the a an and or of to in on for with no tools were used ' +
    'turn had not ended when this was written answered answer question questions agent replied ' +
    'is are be it that what which how why where when who do does did can could should would'
  ).split(' '),
);

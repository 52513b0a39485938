/**
 * @kiro-learn/extractor: Turns batches of events into memory records: ACP client, prompt framing, parsing, built-in extractor.
 *
 * Everything exported here is public API.
 */
export const PACKAGE_NAME = '@kiro-learn/extractor';

// Builds the hook bundles (dist/bin/*.cjs) the process tests spawn, from the current sources.
import { bundle } from '../scripts/bundle.mjs';

export default async function setup(): Promise<void> {
  await bundle();
}

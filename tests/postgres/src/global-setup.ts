/**
 * vitest globalSetup: one PostgreSQL for the whole run (see index.ts); tests read its URL
 * with `inject('postgresUrl')`.
 */
import type { TestProject } from 'vitest/node';
import { startTestPostgres } from './index.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestPostgres();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}

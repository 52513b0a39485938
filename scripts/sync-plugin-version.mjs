#!/usr/bin/env node
// Part of the release flow (`pnpm version-packages`, after `changeset version`): the
// Claude Code plugin's version is kiro-learn's, in its manifest and in the marketplace
// entry, so `/plugin update` sees each release (Claude Code keeps a cached plugin until its
// version changes). Usage: node scripts/sync-plugin-version.mjs [repository root]
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

const { name, version } = readJson(join(root, 'apps/collector/package.json'));
const manifestFile = join(root, 'apps/collector/claude-plugin/.claude-plugin/plugin.json');
const manifest = readJson(manifestFile);
// `version` right after `name`, where Claude Code's reference shows it.
const { name: pluginName, version: _previous, ...rest } = manifest;
writeJson(manifestFile, { name: pluginName, version, ...rest });

const marketplaceFile = join(root, '.claude-plugin/marketplace.json');
const marketplace = readJson(marketplaceFile);
marketplace.plugins = marketplace.plugins.map((plugin) =>
  plugin.name === pluginName ? { ...plugin, version } : plugin,
);
writeJson(marketplaceFile, marketplace);
console.log(`${pluginName} plugin: version ${version} (${name})`);

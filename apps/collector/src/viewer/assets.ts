import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundle's files: only these are ever served, so no request path reaches the disk. */
const FILES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;

export type AssetName = keyof typeof FILES;

export interface Asset {
  body: Uint8Array;
  type: string;
}

/**
 * Both src/viewer/ (tests, via the source condition) and dist/viewer/ (the built package)
 * sit two levels below the package root, so one relative path finds dist/ui from either.
 */
export const DEFAULT_ASSETS_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

export function isAssetName(name: string): name is AssetName {
  return Object.hasOwn(FILES, name);
}

/** Reads the bundle once; a failed read is retried next time (the build may not have run yet). */
export function assetLoader(dir: string): (name: AssetName) => Promise<Asset | undefined> {
  const cache = new Map<AssetName, Asset>();
  return async (name) => {
    const hit = cache.get(name);
    if (hit) return hit;
    try {
      const asset = { body: await readFile(join(dir, name)), type: FILES[name] };
      cache.set(name, asset);
      return asset;
    } catch {
      return undefined;
    }
  };
}

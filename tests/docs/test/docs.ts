import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Block, fencedBlocks } from './blocks.js';

export const repoRoot = resolve(new URL('../../..', import.meta.url).pathname);
export const docsDir = join(repoRoot, 'docs');

/** A page of docs/ with its fenced blocks. */
export interface Page {
  /** File name inside docs/. */
  name: string;
  text: string;
  blocks: Block[];
}

/** Every Markdown page of docs/, in file-name order. */
export function pages(): Page[] {
  return readdirSync(docsDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(docsDir, name), 'utf8');
      return { name, text, blocks: fencedBlocks(text) };
    });
}

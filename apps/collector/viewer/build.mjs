// Bundles the viewer page into one script, one stylesheet and index.html (dist/ui by
// default, or the folder given as the first argument). No CDN: everything the page loads
// ships in the npm tarball.
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));

export async function buildViewer(outDir = join(here, '../dist/ui')) {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [
      { in: join(here, 'src/main.ts'), out: 'app' },
      { in: join(here, 'styles.css'), out: 'app' },
    ],
    outdir: outDir,
    bundle: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari17'],
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  await copyFile(join(here, 'index.html'), join(outDir, 'index.html'));
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildViewer(process.argv[2] ? resolve(process.argv[2]) : undefined);
}

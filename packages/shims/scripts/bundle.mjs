// Bundles each hook entry into one self-contained CommonJS file (dist/bin/*.cjs): a hook is
// a fresh process per prompt and tool use, so it must load no TypeScript, no zod, no
// node_modules lookups, and not the ESM loader either (an ESM import of node:http builds
// its whole namespace and pulls in tls, http2, undici: about +30 % start-up). Schema modules are declared side-effect free so that importing a
// constant from @kiro-learn/schema does not drag its zod schemas in.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = [
  'kiro',
  'kiro-ide',
  'claude-code',
  'codex',
  'gemini-cli',
  'cursor',
  'copilot',
  'cline',
  'opencode',
  'augment',
  'windsurf',
  'kiro-learn-shim',
];

/** @type {import('esbuild').Plugin} */
const schemaIsPure = {
  name: 'schema-is-pure',
  setup(b) {
    const inSchema = /[\\/]packages[\\/]schema[\\/]|[\\/]@kiro-learn[\\/]schema[\\/]/;
    b.onResolve({ filter: /./ }, async (args) => {
      if (args.pluginData === schemaIsPure) return undefined;
      const { kind, resolveDir, importer } = args;
      const resolved = await b.resolve(args.path, {
        kind,
        resolveDir,
        importer,
        pluginData: schemaIsPure,
      });
      if (resolved.errors.length > 0 || !inSchema.test(resolved.path)) return resolved;
      return { ...resolved, sideEffects: false };
    });
  },
};

export async function bundle(outdir = join(root, 'dist', 'bin')) {
  const result = await build({
    entryPoints: Object.fromEntries(entries.map((e) => [e, join(root, 'src', 'bin', `${e}.ts`)])),
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    conditions: ['@kiro-learn/source'],
    define: { KIRO_LEARN_SHIM_VERSION: JSON.stringify(version) },
    // What `kiro-learn doctor` and the collector read to tell an old copy in the data dir.
    banner: { js: `// kiro-learn hook script ${version}` },
    plugins: [schemaIsPure],
    metafile: true,
    logLevel: 'warning',
    write: false,
  });
  // Tests bundle too, while other suites may be running these very files: write a file only
  // when its content changed, and by rename, so no reader ever sees half a file.
  mkdirSync(outdir, { recursive: true });
  for (const file of result.outputFiles) {
    const current = existsSync(file.path) ? readFileSync(file.path) : undefined;
    if (current?.equals(file.contents)) continue;
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    if (current) chmodSync(temp, statSync(file.path).mode); // keep a bin's executable bit
    renameSync(temp, file.path);
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();

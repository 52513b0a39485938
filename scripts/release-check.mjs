#!/usr/bin/env node
// Release check: what npm would publish for each public package, checked before anyone
// publishes it. Run by the test command (tests/release) and on its own:
//   node scripts/release-check.mjs [package dir …]     (packages must be built)
// Checks, per package: publint (strict); the metadata npm shows (license, repository with
// the package's directory, homepage, bugs, engines); no test-only bin; and the tarball's
// file list (of the `pnpm pack` tarball, which publint lints too): LICENSE, README.md, every exports/bin target present,
// no tests, benchmarks, fixtures or reports. Prints one line per problem; exits 1 if any.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = resolve(new URL('..', import.meta.url).pathname);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Every public package of the workspace (packages/* and apps/*), as repo-relative dirs. */
export function publicPackages() {
  return ['packages', 'apps'].flatMap((parent) =>
    readdirSync(join(root, parent))
      .map((name) => `${parent}/${name}`)
      .filter((dir) => existsSync(join(root, dir, 'package.json')))
      .filter((dir) => !readJson(join(root, dir, 'package.json')).private),
  );
}

/** `pnpm pack` of one package into a temp dir: the tarball and its file list. */
function pack(dir) {
  const out = mkdtempSync(join(tmpdir(), 'kiro-learn-release-check-'));
  try {
    execFileSync('pnpm', ['pack', '--pack-destination', out], { cwd: dir, stdio: 'pipe' });
    const tarball = join(out, readdirSync(out)[0]);
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
    const bytes = readFileSync(tarball);
    return {
      files,
      tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Every file an `exports` map or `bin` points at (conditions and patterns flattened). */
function targets(pkg) {
  const found = [];
  const walk = (node) => {
    if (typeof node === 'string') found.push(node);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key !== '@kiro-learn/source') walk(value);
      }
    }
  };
  walk(pkg.exports);
  walk(pkg.bin);
  return found.filter((t) => !t.includes('*')).map((t) => t.replace(/^\.\//, ''));
}

const FORBIDDEN = [
  [/(^|\/)[^/]*\.test\.[cm]?[jt]s(\.map)?$/, 'a test file'],
  [/(^|\/)(test|tests|bench|fixtures|examples|node_modules)\//, 'a test, bench or example file'],
  [/(^|\/)test-results\.json$|\.tsbuildinfo$/, 'a build or test report'],
];

/** Problems of one package dir (absolute), each a one-line message. */
export async function checkPackage(dir, rootPkg = readJson(join(root, 'package.json'))) {
  const problems = [];
  const pkg = readJson(join(dir, 'package.json'));
  const say = (message) => problems.push(`${pkg.name ?? dir}: ${message}`);
  const at = relative(root, dir);

  const { files, tarball } = pack(dir);
  const { messages } = await publint({ strict: true, pack: { tarball } });
  for (const message of messages) say(`publint: ${formatMessage(message, pkg)}`);

  if (pkg.license !== 'MIT') say('license must be "MIT"');
  if (pkg.repository?.url !== rootPkg.repository?.url || pkg.repository?.type !== 'git') {
    say(`repository must be {type: "git", url: "${rootPkg.repository?.url}", directory}`);
  }
  if (at && !at.startsWith('..') && pkg.repository?.directory !== at) {
    say(`repository.directory must be "${at}"`);
  }
  if (pkg.homepage !== rootPkg.homepage) say(`homepage must be "${rootPkg.homepage}"`);
  if (pkg.bugs?.url !== rootPkg.bugs?.url) say(`bugs.url must be "${rootPkg.bugs?.url}"`);
  if (!pkg.description) say('needs a description');
  if (!/^>=(20\.16|22)(\.\d+)*$/.test(pkg.engines?.node ?? '')) {
    say('engines.node must be ">=20.16" (runs on Node 20) or ">=22"');
  }
  for (const name of Object.keys(pkg.bin ?? {})) {
    if (/test/.test(name)) say(`bin "${name}" is for tests: run it by path, do not publish it`);
  }
  if (!existsSync(join(dir, 'LICENSE'))) {
    say('LICENSE is missing from the package directory');
  }

  const listed = new Set(files);
  for (const required of ['package.json', 'README.md', 'LICENSE', ...targets(pkg)]) {
    if (!listed.has(required)) say(`the tarball lacks ${required}`);
  }
  for (const file of files) {
    for (const [pattern, what] of FORBIDDEN) {
      if (pattern.test(file)) say(`the tarball holds ${what}: ${file}`);
    }
  }
  return problems;
}

/** Problems across the workspace: every public package, and the license beside them. */
export async function checkRelease(dirs = publicPackages()) {
  const rootPkg = readJson(join(root, 'package.json'));
  const license = existsSync(join(root, 'LICENSE'))
    ? readFileSync(join(root, 'LICENSE'), 'utf8')
    : '';
  const problems = license ? [] : ['LICENSE is missing from the repository root'];
  for (const dir of dirs) {
    const abs = resolve(root, dir);
    problems.push(...(await checkPackage(abs, rootPkg)));
    const copy = join(abs, 'LICENSE');
    if (existsSync(copy) && readFileSync(copy, 'utf8') !== license) {
      problems.push(`${dir}: LICENSE differs from the repository's (copy it again)`);
    }
  }
  return problems;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const args = process.argv.slice(2);
  const problems = await checkRelease(args.length > 0 ? args : undefined);
  for (const problem of problems) console.error(problem);
  const rootPkg = readJson(join(root, 'package.json'));
  if (new URL(rootPkg.homepage).hostname.endsWith('.invalid')) {
    console.log(
      `note: the repository URL is a placeholder (${rootPkg.repository.url}); set the real one in package.json and every package before the first publish`,
    );
  }
  console.log(
    problems.length === 0 ? 'release check: ok' : `release check: ${problems.length} problem(s)`,
  );
  process.exit(problems.length === 0 ? 0 : 1);
}

// Prints the functions with the most self time in a V8 .cpuprofile (from `--cpu-prof`, or
// BENCH_PROFILE=<dir> with the ingest benchmark), then the most inclusive time (the
// function or anything it called): `node bench/profile-top.ts <file> [N]`.
// Time in a blocking syscall shows up as self time of the native call: `writev` of a
// response includes the moments the kernel spent running the woken client instead.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-top.ts <file.cpuprofile> [N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const nameOf = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? ` ${url.replace(/^.*\/(node_modules|packages|apps)\//, '$1/')}:${lineNumber + 1}`
    : '';
  return `${functionName || '(anonymous)'}${where}`;
};
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const node = byId.get(id);
  if (!node) return;
  const name = nameOf(node);
  self.set(name, (self.get(name) ?? 0) + dt);
  const onStack = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at);
    if (frame) onStack.add(nameOf(frame));
  }
  for (const n of onStack) inclusive.set(n, (inclusive.get(n) ?? 0) + dt);
});
const print = (title: string, times: Map<string, number>) => {
  console.log(title);
  for (const [name, us] of [...times].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    const pct = ((us / total) * 100).toFixed(1).padStart(5);
    console.log(`${pct} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name.slice(0, 150)}`);
  }
};
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
print('self time:', self);
print('inclusive time:', inclusive);

// Prints the functions with the most self time in a V8 .cpuprofile (from `--cpu-prof`, or
// BENCH_PROFILE=<dir> with the ingest benchmark): `node bench/profile-top.ts <file> [N]`.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
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
const self = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const frame = byId.get(id)?.callFrame;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  if (!frame) return;
  const where = frame.url ? ` ${frame.url.replace(/^.*\/(node_modules|packages|apps)\//, '$1/')}:${frame.lineNumber + 1}` : '';
  const name = `${frame.functionName || '(anonymous)'}${where}`;
  self.set(name, (self.get(name) ?? 0) + dt);
});
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  console.log(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
}

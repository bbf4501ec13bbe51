/**
 * npx tsx bench/cpu-profile-top.ts FILE.cpuprofile [--top N] — a V8 CPU profile (node --cpu-prof) as its
 * top self-time functions (name, file:line, ms, share) and the garbage collector's share of all samples.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const file = args.find((arg, index) => !arg.startsWith('--') && index !== topAt + 1);
if (file === undefined) throw new Error('usage: cpu-profile-top.ts FILE.cpuprofile [--top N]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<string, number>();
let totalUs = 0;
let idleUs = 0;
for (let index = 0; index < profile.samples.length; index += 1) {
  const node = byId.get(profile.samples[index] as number);
  const delta = profile.timeDeltas[index + 1] ?? 0;
  if (node === undefined) continue;
  const frame = node.callFrame;
  if (frame.functionName === '(idle)') {
    idleUs += delta;
    continue;
  }
  totalUs += delta;
  const key = `${frame.functionName || '(anonymous)'} ${frame.url === '' ? '' : `${path.basename(frame.url)}:${frame.lineNumber + 1}`}`;
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
}
const gcUs = [...selfUs].filter(([key]) => key.startsWith('(garbage collector)')).reduce((sum, [, us]) => sum + us, 0);
process.stdout.write(
  `busy=${(totalUs / 1000).toFixed(0)} ms idle=${(idleUs / 1000).toFixed(0)} ms gc=${(gcUs / 1000).toFixed(0)} ms (${((100 * gcUs) / totalUs).toFixed(1)}% of busy)\n`,
);
for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  process.stdout.write(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${key}\n`);
}

/**
 * npx tsx bench/ids-cpu.ts TREE.json [--base DIR] [--rounds N] — CPU of buildTree (src/core/ui/ids.ts) over a
 * big tree: a tree read-ab.ts wrote (`<app>-this.json` in the directory it names, ids dropped and a ref put back
 * on every node), built by this tree's ids.ts and, with --base, by DIR's, alternating round by round
 * in one process; the median ms per build and whether both give the same ids.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildTree, type RawNode } from '../src/core/ui/ids';
import type { UiNode } from '../src/shared/ui-node';
import { median } from './stats';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { base: { type: 'string' }, rounds: { type: 'string', default: '20' } } });
const file = positionals[0];
if (file === undefined) throw new Error('usage: ids-cpu.ts TREE.json [--base DIR] [--rounds N]');
const raw = (node: UiNode): RawNode<number> => {
  const { id: _id, children, ...fields } = node;
  return { ...fields, ref: 0, ...(children === undefined ? {} : { children: children.map(raw) }) };
};
const tree = raw(JSON.parse(readFileSync(file, 'utf8')) as UiNode);
const builds: [string, typeof buildTree][] = [['this', buildTree]];
if (values.base !== undefined) {
  const base = (await import(path.resolve(values.base, 'src/core/ui/ids.ts'))) as { buildTree: typeof buildTree };
  builds.unshift(['base', base.buildTree]);
}
const times = new Map(builds.map(([label]) => [label, [] as number[]]));
for (let round = 0; round < Number(values.rounds); round += 1)
  for (const [label, build] of round % 2 === 0 ? builds : [...builds].reverse()) {
    const started = performance.now();
    build(tree);
    times.get(label)?.push(performance.now() - started);
  }
const ids = builds.map(([, build]) => JSON.stringify(build(tree).root));
for (const [label, runs] of times) process.stdout.write(`${label} build_ms=${median(runs.slice(2)).toFixed(1)}\n`);
if (ids.length === 2) process.stdout.write(`same_ids=${ids[0] === ids[1]}\n`);

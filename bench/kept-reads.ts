/**
 * npm run bench:kept-reads -- [app …] (default: featherpad qt6ct) — Qt reads with and without
 * kept-reads.ts (interfaces kept between reads, children listed in the round trip that reads a
 * node), beside python3-pyatspi's warm dump, in alternating rounds of one run so a load that
 * comes and goes weighs on each alike. The tree fetch alone (no id building), bounds off, as the
 * engine reads. Prints per app the medians, calls per node and both ratios, whether both read the
 * same tree (with bounds, every field of every node), and the load.
 */
import { loadavg } from 'node:os';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import type { RawNode } from '../src/core/ui/ids';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { fetchTree } from '../src/core/platform/linux/tree-fetch';
import { startDesktop } from '../test/linux/desktop';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { median, ms } from './stats';

const ROUNDS = 9;
const ROOT = '/org/a11y/atspi/accessible/root';
const calls = countAtspiCalls();
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Every node's fields, one line each in tree order, with Qt's per-read object ids left out. */
function flat(node: RawNode<AtspiRef>, lines: string[] = []): string[] {
  const { children, ref, ...fields } = node;
  lines.push(JSON.stringify({ ...fields, ref: { ...ref, path: /\/accessible\/\d+$/.test(ref.path) ? 'id' : ref.path } }));
  for (const child of children ?? []) flat(child, lines);
  return lines;
}

const only = process.argv.slice(2).filter((arg) => arg !== '--');
const names = only.length > 0 ? only : ['featherpad', 'qt6ct'];
const desktop = await startDesktop({ openbox: true });
const client = await AtspiClient.connect(desktop.session.env);
process.stdout.write(`load: ${load()}\n`);
try {
  for (const app of TOOLKIT_APPS.filter((each) => names.includes(each.name) && isInstalled(each))) {
    const { pid, child } = await launchAppProcess(desktop, app);
    try {
      let bus: string | undefined;
      for (const ref of await client.registryChildren()) if ((await client.pidOf(ref[0])) === pid) bus = ref[0];
      if (bus === undefined) throw new Error('the app is not in the registry');
      // Kept interfaces hold only while the app's events reach us, as the engine's reads have them.
      await client.watch(bus);
      const version = String(await client.property([bus, ROOT], 'org.a11y.atspi.Application', 'Version'));
      const bridge = bridgeOf('Qt', version);
      const options = { bounds: 'none' as const, maxNodes: 20_000, maxDepth: 64 };
      const fetch = (kept: boolean, bounds: 'none' | 'all' = 'none') =>
        fetchTree(client, { pid, bus: bus as string, name: app.name, gtk4: false, bridge: { ...bridge, keptInterfaces: kept } }, { ...options, bounds });
      const read = async (kept: boolean): Promise<{ ms: number; calls: number }> => {
        calls.clear();
        const started = performance.now();
        await fetch(kept);
        return { ms: performance.now() - started, calls: totalCalls(calls) };
      };
      // The same tree either way, bounds and all: every field of every node, but the ids Qt makes anew for each read of a view's cells.
      await fetch(true, 'all');
      const same = [await fetch(false, 'all'), await fetch(true, 'all')].map((tree) => flat(tree));
      const differing = (same[0] ?? []).filter((line, index) => line !== same[1]?.[index]).length + Math.abs((same[0]?.length ?? 0) - (same[1]?.length ?? 0));
      const asked: { ms: number; calls: number }[] = [];
      const kept: { ms: number; calls: number }[] = [];
      const py: number[] = [];
      let nodes = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        asked.push(await read(false));
        kept.push(await read(true));
        // The second dump of a process: libatspi then holds each node's interfaces, as in bench:apps' repeated runs.
        const dump = await pyatspiRead(desktop.session.env, pid, 2);
        py.push(dump.runs_ms.at(-1) ?? dump.median_ms);
        nodes = dump.nodes;
      }
      const [before, after, reference] = [median(asked.map((each) => each.ms)), median(kept.map((each) => each.ms)), median(py)];
      const perNode = (reads: { calls: number }[]): string => (median(reads.map((each) => each.calls)) / nodes).toFixed(2);
      process.stdout.write(
        `${app.name.padEnd(11)} nodes=${nodes} asked=${ms(before)} ms (${perNode(asked)} calls/node) kept=${ms(after)} ms (${perNode(kept)} calls/node) ` +
          `pyatspi=${ms(reference)} ms ratio asked=${(reference / before).toFixed(1)}x kept=${(reference / after).toFixed(1)}x same_tree=${differing === 0} (${differing} of ${same[0]?.length ?? 0} nodes differ)\n`,
      );
    } catch (error) {
      process.stdout.write(`${app.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      await stopAppProcess({ pid, child });
    }
  }
  process.stdout.write(`load: ${load()}\n`);
} finally {
  client.close();
  await desktop.stop();
}
process.exit(0);

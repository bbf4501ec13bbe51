/**
 * npm run bench:tree — a full tree fetch (ids, roles, names, states, values, extents) on
 * real GTK apps, against python3-pyatspi dumping the same app in the same run.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BoundsMode } from '../src/core/platform/types';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import { median, ms, timed } from './stats';

const RUNS = 5;
const PYATSPI_DUMP = fileURLToPath(new URL('./reference/pyatspi-dump.py', import.meta.url));
const APPS = [
  { name: 'gtk3-widget-factory', command: 'gtk3-widget-factory', gtk: 3 },
  { name: 'mousepad', command: 'mousepad', gtk: 3 },
  { name: 'gtk4-widget-factory', command: 'gtk4-widget-factory', gtk: 4 },
] as const;

interface Row {
  name: string;
  gtk: number;
  nodes: number;
  ours: number;
  interactiveExtents: number;
  allExtents: number;
  pyatspi: number;
  pyatspiNodes: number;
}

async function pyatspi(desktop: Desktop, pid: number): Promise<{ nodes: number; median_ms: number }> {
  const { stdout } = await promisify(execFile)('/usr/bin/python3', [PYATSPI_DUMP, '--pid', String(pid), '--runs', String(RUNS)], {
    env: desktop.session.env,
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

async function measure(desktop: Desktop, app: (typeof APPS)[number]): Promise<Row> {
  const { pid } = await desktop.launch(app.command);
  // Every run is a whole read: the default read is served from the event-patched mirror (bench:observe measures that).
  const fetch = (bounds: BoundsMode) => () => desktop.engine.observe(pid, { ...WHOLE_READ, bounds });
  // Warm-up: the first calls wake the app's accessibility code and fill its caches.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await timed(2, fetch('all'));
  const ours = median(await timed(RUNS, fetch('none')));
  const interactiveExtents = median(await timed(RUNS, fetch('interactive')));
  const allExtents = median(await timed(RUNS, fetch('all')));
  const nodes = countNodes((await desktop.engine.observe(pid, WHOLE_READ)).root);
  const reference = await pyatspi(desktop, pid);
  return { name: app.name, gtk: app.gtk, nodes, ours, interactiveExtents, allExtents, pyatspi: reference.median_ms, pyatspiNodes: reference.nodes };
}

async function cachedRefetch(desktop: Desktop, pid: number): Promise<number> {
  await desktop.engine.observe(pid);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return median(await timed(20, () => desktop.engine.observe(pid)));
}

async function main(): Promise<void> {
  const desktop = await startDesktop();
  try {
    console.log(`session up in ${desktop.session.startupMs} ms; ${RUNS} runs each, medians.`);
    console.log(
      'ours: ids, roles, names, states, values; extents are read on demand for the node an action targets (the default). pyatspi reads extents for every node.',
    );
    const rows: Row[] = [];
    for (const app of APPS) {
      const row = await measure(desktop, app);
      rows.push(row);
      console.log(
        `${row.name.padEnd(20)} nodes=${row.nodes} (pyatspi ${row.pyatspiNodes})  ours=${ms(row.ours)} ms  pyatspi=${ms(row.pyatspi)} ms  ratio=${(row.pyatspi / row.ours).toFixed(1)}x` +
          `  | with extents: interactive=${ms(row.interactiveExtents)} ms (${(row.pyatspi / row.interactiveExtents).toFixed(1)}x)  all=${ms(row.allExtents)} ms (${(row.pyatspi / row.allExtents).toFixed(1)}x)`,
      );
    }
    const gtk4 = rows.find((row) => row.gtk === 4) as Row;
    const gtk3Ratio = Math.min(...rows.filter((row) => row.gtk === 3).map((row) => row.pyatspi / row.ours));
    const idle = (await desktop.platform.apps.list()).find((app) => app.name === 'gtk3-widget-factory') as { pid: number };
    console.log(`tree_fetch: gtk4_ratio=${(gtk4.pyatspi / gtk4.ours).toFixed(1)} gtk3_min_ratio=${gtk3Ratio.toFixed(1)} gtk4_median_ms=${ms(gtk4.ours)}`);
    console.log(`cached_refetch_ms=${(await cachedRefetch(desktop, idle.pid)).toFixed(2)}`);
  } finally {
    await desktop.stop();
  }
}

await main();

/**
 * npx tsx bench/read-cpu.ts [app] [--reads N] (default featherpad, 40) — this process's CPU per
 * whole read of one toolkit app and per D-Bus call, layer by layer: the tree fetch alone, the
 * platform's getTree, getTree with the ids built, and the engine's observe, N reads each after N
 * to warm up (the first reads of a process cost up to twice as much: the code is not optimized
 * yet). For a CPU profile of the same: node --cpu-prof --import tsx bench/read-cpu.ts. `chromium-page-20000`
 * (or `firefox-page-N`) reads a generated page of N nodes instead of an app. GC's count and time per
 * read come from a PerformanceObserver.
 */
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import type { AtspiClient } from '../src/core/platform/linux/client';
import { fetchTree, type AppTarget } from '../src/core/platform/linux/tree-fetch';
import { buildTree } from '../src/core/ui/ids';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage, type Browser } from '../test/linux/order-compare';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import { TOOLKIT_APPS, launchAppProcess, stopAppProcess } from '../test/linux/toolkit-apps';
import { countAtspiCalls, totalCalls } from './atspi-calls';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const readsAt = args.indexOf('--reads');
const reads = readsAt >= 0 ? Number(args[readsAt + 1]) : 40;
const name = args.find((arg, index) => !arg.startsWith('--') && index !== readsAt + 1) ?? 'featherpad';
const page = /^(chromium|firefox)-page-(\d+)$/.exec(name);
const app = TOOLKIT_APPS.find((each) => each.name === name);
if (app === undefined && page === null) throw new Error(`no app ${name} in test/linux/toolkit-apps.ts`);
let gcCount = 0;
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    gcCount += 1;
    gcMs += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });
const calls = countAtspiCalls();
const desktop = await startDesktop({ openbox: true });
try {
  const launched =
    app !== undefined ? await launchAppProcess(desktop, app) : { ...(await openBigPage(desktop, page?.[1] as Browser, Number(page?.[2]))), child: undefined };
  try {
    const { client, apps } = desktop.platform.accessibility as unknown as { client: AtspiClient; apps: { get(pid: number): Promise<AppTarget> } };
    const entry = await apps.get(launched.pid);
    const layers: [string, () => Promise<unknown>][] = [
      ['fetchTree', () => fetchTree(client, entry, { bounds: 'none', maxNodes: WHOLE_READ.maxNodes, maxDepth: 1000 })],
      ['getTree', () => desktop.platform.accessibility.getTree(launched.pid, WHOLE_READ)],
      ['getTree+ids', async () => buildTree(await desktop.platform.accessibility.getTree(launched.pid, WHOLE_READ))],
      ['observe', () => desktop.engine.observe(launched.pid, WHOLE_READ)],
    ];
    for (const [, work] of layers) for (let read = 0; read < reads; read += 1) await work();
    process.stdout.write(`${name}: ${reads} reads per layer, load ${loadavg()[0]?.toFixed(2)}\n`);
    for (const [label, work] of layers) {
      calls.clear();
      gcCount = 0;
      gcMs = 0;
      const before = process.cpuUsage();
      const started = performance.now();
      for (let read = 0; read < reads; read += 1) await work();
      const spent = process.cpuUsage(before);
      const cpuMs = (spent.user + spent.system) / 1000;
      const total = totalCalls(calls);
      process.stdout.write(
        `  ${label.padEnd(12)} ms/read=${((performance.now() - started) / reads).toFixed(1)} cpu_ms/read=${(cpuMs / reads).toFixed(1)} ` +
          `calls/read=${(total / reads).toFixed(0)} cpu_us/call=${((1000 * cpuMs) / Math.max(1, total)).toFixed(1)} ` +
          `gc/read=${(gcCount / reads).toFixed(0)} gc_ms/read=${(gcMs / reads).toFixed(1)}\n`,
      );
    }
    process.stdout.write(`load at end: ${loadavg()[0]?.toFixed(2)}\n`);
  } finally {
    if (launched.child !== undefined) await stopAppProcess({ pid: launched.pid, child: launched.child });
  }
} finally {
  await desktop.stop();
}
process.exit(0);

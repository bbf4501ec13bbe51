/**
 * npx tsx bench/read-cpu-ab.ts --base DIR [app] [--rounds N] (default featherpad, 60) — this process's
 * CPU per whole read and per D-Bus call, this tree's platform against DIR's (a copy of the tree before
 * a change: `git archive HEAD | tar -x -C DIR`, node_modules linked), both loaded in this one process
 * and reading the same running app in alternating rounds, after as many rounds to warm up: both are
 * measured warm and under the same load, which read-ab.ts' fresh worker processes are not. Per tree the
 * median ms and CPU per read, µs of CPU per call and GC ms per read; then base/this. App names as
 * read-cpu.ts (`chromium-page-20000` or `firefox-page-N` for a generated page).
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import type { Platform } from '../src/core/platform/types';
import { startDesktop } from '../test/linux/desktop';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import { openBigPage, type Browser } from '../test/linux/order-compare';
import { TOOLKIT_APPS, launchAppProcess, stopAppProcess } from '../test/linux/toolkit-apps';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { processCpuMs } from './cpu-share';
import { median } from './stats';

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const base = option('--base');
if (base === undefined) throw new Error('usage: read-cpu-ab.ts --base DIR [app] [--rounds N]');
const rounds = Number(option('--rounds') ?? 60);
const valued = new Set([base, option('--rounds')]);
const name = args.find((arg) => !arg.startsWith('--') && !valued.has(arg)) ?? 'featherpad';
const page = /^(chromium|firefox)-page-(\d+)$/.exec(name);
const app = TOOLKIT_APPS.find((each) => each.name === name);
if (app === undefined && page === null) throw new Error(`no app ${name} in test/linux/toolkit-apps.ts`);

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

interface Side {
  label: string;
  platform: Platform;
  calls: Map<string, number>;
  ms: number[];
  cpuMs: number[];
  usPerCall: number[];
  gcMs: number[];
  /** The app's own CPU per read (its main process, from /proc: 10 ms ticks, so read as a median of many). */
  appMs: number[];
}

const desktop = await startDesktop({ openbox: true });
try {
  const launched =
    app !== undefined ? await launchAppProcess(desktop, app) : { ...(await openBigPage(desktop, page?.[1] as Browser, Number(page?.[2]))), child: undefined };
  try {
    const baseDir = path.resolve(base);
    const { createLinuxPlatform } = (await import(path.join(baseDir, 'src/core/platform/linux/index.ts'))) as {
      createLinuxPlatform: (env: Record<string, string | undefined>) => Promise<Platform>;
    };
    const { countAtspiCalls: countBaseCalls } = (await import(path.join(baseDir, 'bench/atspi-calls.ts'))) as { countAtspiCalls: typeof countAtspiCalls };
    const basePlatform = await createLinuxPlatform(desktop.session.env);
    const sides: Side[] = [
      { label: 'this', platform: desktop.platform, calls: countAtspiCalls(), ms: [], cpuMs: [], usPerCall: [], gcMs: [], appMs: [] },
      { label: 'base', platform: basePlatform, calls: countBaseCalls(), ms: [], cpuMs: [], usPerCall: [], gcMs: [], appMs: [] },
    ];
    const read = (side: Side): Promise<unknown> => side.platform.accessibility.getTree(launched.pid, WHOLE_READ);
    for (let round = 0; round < rounds; round += 1) for (const side of sides) await read(side);
    process.stdout.write(`${name}: ${rounds} rounds after ${rounds} to warm up, load ${loadavg()[0]?.toFixed(2)}\n`);
    for (let round = 0; round < rounds; round += 1) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        side.calls.clear();
        gcMs = 0;
        const before = process.cpuUsage();
        const appBefore = processCpuMs(launched.pid);
        const started = performance.now();
        await read(side);
        const ms = performance.now() - started;
        side.appMs.push(processCpuMs(launched.pid) - appBefore);
        const spent = process.cpuUsage(before);
        const cpuMs = (spent.user + spent.system) / 1000;
        side.ms.push(ms);
        side.cpuMs.push(cpuMs);
        side.usPerCall.push((1000 * cpuMs) / Math.max(1, totalCalls(side.calls)));
        side.gcMs.push(gcMs);
      }
    }
    for (const side of sides) {
      process.stdout.write(
        `  ${side.label} ms/read=${median(side.ms).toFixed(1)} cpu_ms/read=${median(side.cpuMs).toFixed(2)} calls/read=${totalCalls(side.calls)} ` +
          `cpu_us/call=${median(side.usPerCall).toFixed(2)} gc_ms/read=${median(side.gcMs).toFixed(2)} app_cpu_ms/read=${median(side.appMs).toFixed(0)}\n`,
      );
    }
    const [mine, theirs] = sides;
    if (mine !== undefined && theirs !== undefined) {
      process.stdout.write(
        `read-cpu-ab: cpu base/this=${(median(theirs.cpuMs) / median(mine.cpuMs)).toFixed(2)}x ms base/this=${(median(theirs.ms) / median(mine.ms)).toFixed(2)}x ` +
          `load=${loadavg()[0]?.toFixed(2)}\n`,
      );
    }
    await basePlatform.close();
  } finally {
    if (launched.child !== undefined) await stopAppProcess({ pid: launched.pid, child: launched.child });
  }
} finally {
  await desktop.stop();
}
process.exit(0);

/**
 * npx tsx bench/launch-cpu.ts — the CPU one launch of each heavy app costs as the tests start it (until
 * its window is in the AT-SPI tree and its known text has settled), counted as the CPU of the
 * app's reaped process tree (this process's children's user+sys time, from /proc/self/stat), so
 * other engineers' load on a shared machine does not count. Each launch gets a fresh HOME folder.
 *   npx tsx bench/launch-cpu.ts [name ...] [--runs N] [--seed]
 * --seed: each launch starts from a copy of profiles one earlier launch made (locks left out).
 */
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startDesktop } from '../test/linux/desktop';
import { calcSheetApp } from '../test/linux/calc-sheet';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, stopAppProcess, treeText, type ToolkitApp } from '../test/linux/toolkit-apps';

const TICKS_PER_SECOND = 100;
/** A running app's locks, which a copy must leave behind (the copy's app would think itself already running). */
const LOCKS = new Set(['.lock', 'lock', '.parentlock', 'SingletonLock', 'SingletonSocket', 'SingletonCookie']);

/** CPU seconds of this process's reaped children (cutime + cstime). */
function childrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 2;
const names = argv.filter((arg, index) => !arg.startsWith('--') && index !== runsAt + 1);
const apps: ToolkitApp[] = [...TOOLKIT_APPS, calcSheetApp(10_000)].filter((app) => isInstalled(app) && (names.length === 0 || names.includes(app.name)));

const desktop = await startDesktop({ openbox: true });
const home = desktop.session.env['HOME'] as string;
try {
  for (const app of apps) {
    const figures: string[] = [];
    let seed: string | undefined;
    if (argv.includes('--seed')) {
      // One launch made the profiles; each measured launch starts from a copy of them.
      seed = path.join(home, `seed-${app.name}`);
      mkdirSync(seed, { recursive: true });
      desktop.session.env['HOME'] = seed;
      await stopAppProcess(await launchAppProcess(desktop, app));
      desktop.session.env['HOME'] = home;
    }
    for (let run = 0; run < runs; run += 1) {
      // A fresh HOME per launch: a profile left by the last run would hide the first-start work.
      const fresh = path.join(home, `run-${app.name}-${run}`);
      mkdirSync(fresh, { recursive: true });
      if (seed !== undefined)
        cpSync(seed, fresh, { recursive: true, filter: (source) => !LOCKS.has(path.basename(source)) && !path.basename(source).startsWith('.~lock') });
      desktop.session.env['HOME'] = fresh;
      const before = childrenCpu();
      const launched = await launchAppProcess(desktop, app);
      const text = treeText((await desktop.engine.observe(launched.pid, { fresh: true })).root).includes(app.knownText);
      await stopAppProcess(launched);
      figures.push(`${(childrenCpu() - before).toFixed(2)}${text ? '' : ' (no known text)'}`);
      desktop.session.env['HOME'] = home;
      rmSync(fresh, { recursive: true, force: true });
    }
    console.log(`${app.name}: ${figures.join(' ')} CPU-s per launch`);
  }
} finally {
  await desktop.stop();
}

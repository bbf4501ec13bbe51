/**
 * npm run bench:read-calls -- [app …] — for each toolkit app of bench:apps, the D-Bus calls a
 * whole read makes per node (by member) beside python3-pyatspi's time in the same run: where
 * a toolkit stays under 5× pyatspi, these counts say why (calls the app must answer one by one).
 */
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop } from '../test/linux/desktop';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { median, ms, timed } from './stats';
import { a11yBusPid, cpuShare, describeShare } from './cpu-share';

const RUNS = 3;
/** Every D-Bus call the reader makes, by member, for calls-per-node figures. */
const calls = countAtspiCalls();

const only = process.argv.slice(2).filter((arg) => arg !== '--');
const desktop = await startDesktop({ openbox: true });
try {
  for (const app of TOOLKIT_APPS.filter((each) => (only.length === 0 || only.includes(each.name)) && isInstalled(each))) {
    const { pid, child } = await launchAppProcess(desktop, app);
    try {
      // Past the event-patched mirror: a whole read, as pyatspi's dump is.
      const whole = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
      calls.clear();
      const nodes = countNodes((await desktop.engine.observe(pid, whole)).root);
      const total = totalCalls(calls);
      const members = [...calls].sort((a, b) => b[1] - a[1]).map(([member, count]) => `${member}=${(count / nodes).toFixed(2)}`);
      const ours = median(await timed(RUNS, () => desktop.engine.observe(pid, whole)));
      // Who is busy while each side reads: an app near 100% cannot answer faster, however the calls are sent.
      const bus = a11yBusPid(desktop.session.processIds());
      const ourCpu = await cpuShare(pid, bus, () => timed(RUNS, () => desktop.engine.observe(pid, whole)));
      let py: Awaited<ReturnType<typeof pyatspiRead>> | undefined;
      const pyCpu = await cpuShare(pid, bus, async () => (py = await pyatspiRead(desktop.session.env, pid, RUNS)));
      if (py === undefined) throw new Error('pyatspi did not answer');
      process.stdout.write(
        `${app.name.padEnd(18)} nodes=${nodes}/${py.nodes} ours=${ms(ours)} ms pyatspi=${ms(py.median_ms)} ms ratio=${(py.median_ms / ours).toFixed(1)}x calls/node=${(total / nodes).toFixed(2)} [${members.slice(0, 9).join(' ')}]\n` +
          `${''.padEnd(19)}cpu during ours: ${describeShare(ourCpu)}; during pyatspi: ${describeShare(pyCpu)}; app ms per read: ours ${ms(ourCpu.appMs / RUNS)} pyatspi ${ms(pyCpu.appMs / RUNS)}\n`,
      );
    } catch (error) {
      process.stdout.write(`${app.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      await stopAppProcess({ pid, child });
    }
  }
} finally {
  await desktop.stop();
}
process.exit(0);

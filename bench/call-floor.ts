/**
 * npm run bench:call-floor -- [app …] (default: featherpad qt6ct) — for a toolkit whose bridge
 * answers one fact per message (Qt), the fastest any reader could read the app, beside ours and
 * python3-pyatspi's in the same run:
 * - pyatspi's calls per node, counted by dbus-monitor on the accessibility bus while it dumps
 *   (a first dump: later ones skip GetInterfaces, which libatspi keeps), and its time on a later one;
 * - ours, counted in-process;
 * - rounds that alternate ours, pyatspi's and the floor, so a load that comes and goes weighs on each alike;
 * - the floor: every node's least calls (role, states, name, description, children) sent with all
 *   paths known in advance, as deep as the connection takes them, so no walk, no value and no
 *   label is on the way; its time, and the app's CPU per call, bound any read of this bridge.
 * `bound=` is pyatspi's time over the floor's: the most any reader of this bridge can be ahead.
 */
import { spawn } from 'node:child_process';
import type { AtspiRef } from '../src/core/platform/linux/client';
import { AtspiClient } from '../src/core/platform/linux/client';
import { mapLimit } from '../src/core/platform/linux/pool';
import { MAX_ENUMERATED_CHILDREN } from '../src/core/platform/linux/table-range';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { startDesktop } from '../test/linux/desktop';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { a11yBusPid, cpuShare, describeShare, type CpuShare } from './cpu-share';
import { median, ms, timed } from './stats';

const RUNS = 7;
/** AT-SPI's node interface (benches do not import native/). */
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const DEPTHS = [16, 64, 256];
const isListable = (count: number): boolean => Number.isFinite(count) && count >= 0 && count <= MAX_ENUMERATED_CHILDREN;
const calls = countAtspiCalls();
/** The second of two dumps in one process: libatspi then holds each node's interfaces, as in bench:apps' repeated runs. */
const warmRun = (read: Awaited<ReturnType<typeof pyatspiRead>>): number => read.runs_ms.at(-1) ?? read.median_ms;
const sum = (shares: readonly CpuShare[]): CpuShare =>
  shares.reduce((a, b) => ({ wallMs: a.wallMs + b.wallMs, appMs: a.appMs + b.appMs, busMs: a.busMs + b.busMs, selfMs: a.selfMs + b.selfMs }), {
    wallMs: 0,
    appMs: 0,
    busMs: 0,
    selfMs: 0,
  });
const perNode = (counts: ReadonlyMap<string, number>, nodes: number): string =>
  [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 9)
    .map(([member, count]) => `${member}=${(count / nodes).toFixed(2)}`)
    .join(' ');

/** Method calls to `bus` by member while `work` runs, from dbus-monitor (it sees pyatspi's calls, which no counter in this process can). */
async function monitored(address: string, bus: string, work: () => Promise<unknown>): Promise<Map<string, number>> {
  const monitor = spawn('dbus-monitor', ['--address', address, `type='method_call',destination='${bus}'`], { stdio: ['ignore', 'pipe', 'ignore'] });
  const counts = new Map<string, number>();
  let pending = '';
  monitor.stdout.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString('utf8')).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const member = /^method call .* member=(\w+)/.exec(line)?.[1];
      if (member !== undefined) counts.set(member, (counts.get(member) ?? 0) + 1);
    }
  });
  // The monitor is in place once it has seen a call of ours.
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    await work();
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    monitor.kill('SIGTERM');
  }
  return counts;
}

const only = process.argv.slice(2).filter((arg) => arg !== '--');
const names = only.length > 0 ? only : ['featherpad', 'qt6ct'];
const desktop = await startDesktop({ openbox: true });
const client = await AtspiClient.connect(desktop.session.env);
try {
  process.stdout.write(
    `load: ${(await import('node:os'))
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );
  for (const app of TOOLKIT_APPS.filter((each) => names.includes(each.name) && isInstalled(each))) {
    const { pid, child } = await launchAppProcess(desktop, app);
    try {
      const whole = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
      const bus = a11yBusPid(desktop.session.processIds());
      const read = await desktop.engine.observe(pid, whole);
      const refs = [...read.refs.values()] as AtspiRef[];
      const nodes = refs.length;
      const appBus = refs[0]?.bus as string;
      calls.clear();
      await desktop.engine.observe(pid, whole);
      const ours = [...calls];
      const oursTotal = totalCalls(calls);
      let py: Awaited<ReturnType<typeof pyatspiRead>> | undefined;
      const pyCalls = await monitored(desktop.session.a11yBusAddress, appBus, async () => (py = await pyatspiRead(desktop.session.env, pid, 1)));
      if (py === undefined) throw new Error('pyatspi did not answer');

      // Never ask the children of a node that claims more than a reader lists (a Calc sheet's
      // billions of cells, or -1 from a container that manages its descendants): LibreOffice made
      // an accessible per cell for such a GetChildren and grew to 23 GB before the bench gave up.
      const counts = await mapLimit(refs, 32, (ref) => client.property([ref.bus, ref.path], ACCESSIBLE, 'ChildCount').catch(() => -1));
      const listable = new Set(refs.filter((_ref, index) => isListable(Number(counts[index]))));
      // The floor: the least a node needs, all of it in flight at once, nothing waiting on an answer.
      // A node gone since the read (Qt makes some on demand) answers an error, which costs the same round trip.
      const floorCalls = (ref: AtspiRef): Promise<unknown>[] =>
        [
          client.call([ref.bus, ref.path], ACCESSIBLE, 'GetRole'),
          client.call([ref.bus, ref.path], ACCESSIBLE, 'GetState'),
          client.property([ref.bus, ref.path], ACCESSIBLE, 'Name'),
          client.property([ref.bus, ref.path], ACCESSIBLE, 'Description'),
          ...(listable.has(ref) ? [client.call([ref.bus, ref.path], ACCESSIBLE, 'GetChildren')] : []),
        ].map((call) => call.catch(() => undefined));
      const floorRead = (depth: number) => () => mapLimit(refs, Math.max(1, Math.floor(depth / 5)), (ref) => Promise.all(floorCalls(ref)));
      // Rounds interleave the three, so a load that comes and goes (a shared machine) weighs on each alike.
      const times = { ours: [] as number[], py: [] as number[], floor: new Map(DEPTHS.map((depth) => [depth, [] as number[]])) };
      const shares = { ours: [] as CpuShare[], py: [] as CpuShare[], floor: [] as CpuShare[] };
      for (let round = 0; round < RUNS; round += 1) {
        shares.ours.push(await cpuShare(pid, bus, async () => times.ours.push(...(await timed(1, () => desktop.engine.observe(pid, whole))))));
        shares.py.push(await cpuShare(pid, bus, async () => times.py.push(warmRun(await pyatspiRead(desktop.session.env, pid, 2)))));
        for (const depth of DEPTHS) {
          const share = await cpuShare(pid, bus, async () => times.floor.get(depth)?.push(...(await timed(1, floorRead(depth)))));
          if (depth === DEPTHS.at(-1)) shares.floor.push(share);
        }
      }
      const oursMs = median(times.ours);
      const pyMs = median(times.py);
      const floors = DEPTHS.map((depth) => ({ depth, ms: median(times.floor.get(depth) ?? []) }));
      const best = floors.reduce((a, b) => (b.ms < a.ms ? b : a));
      const oursShare = sum(shares.ours);
      const pyShare = sum(shares.py);
      const floorShare = sum(shares.floor);
      const floorCallCount = (4 * nodes + listable.size) * RUNS;
      const pyTotal = totalCalls(pyCalls);
      process.stdout.write(
        `${app.name.padEnd(11)} nodes=${nodes}/${py.nodes} ours=${ms(oursMs)} ms pyatspi=${ms(pyMs)} ms ratio=${(pyMs / oursMs).toFixed(1)}x ` +
          `floor=${ms(best.ms)} ms (5 calls/node, ${best.depth} in flight; ${floors.map((floor) => `${floor.depth}:${ms(floor.ms)}`).join(' ')}) bound=${(pyMs / best.ms).toFixed(1)}x\n` +
          `${''.padEnd(12)}calls/node ours=${(oursTotal / nodes).toFixed(2)} [${perNode(new Map(ours), nodes)}]\n` +
          `${''.padEnd(12)}calls/node pyatspi (a first dump)=${(pyTotal / nodes).toFixed(2)} [${perNode(new Map([...pyCalls]), nodes)}]\n` +
          `${''.padEnd(12)}cpu ours: ${describeShare(oursShare)}, app ${ms(oursShare.appMs / RUNS)} ms/read; pyatspi: ${describeShare(pyShare)}, app ${ms(pyShare.appMs / (2 * RUNS))} ms/dump; ` +
          `floor: ${describeShare(floorShare)}, app ${((1000 * floorShare.appMs) / floorCallCount).toFixed(0)} µs/call, bus ${((1000 * floorShare.busMs) / floorCallCount).toFixed(0)} µs/call, us ${((1000 * floorShare.selfMs) / floorCallCount).toFixed(0)} µs/call\n`,
      );
    } catch (error) {
      process.stdout.write(`${app.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      await stopAppProcess({ pid, child });
    }
  }
  process.stdout.write(
    `load: ${(await import('node:os'))
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}\n`,
  );
} finally {
  client.close();
  await desktop.stop();
}
process.exit(0);

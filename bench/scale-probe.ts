/**
 * tsx bench/scale-probe.ts [--size 20000] [--rounds 3] — where the 20,000-node Chromium page's
 * figures in the scale table come from (issue 27), each part measured back to back in one run:
 * - find: which path `findNodes` took (the settled mirror searched in memory, or Collection's
 *   GetMatches when the mirror does not serve) and what each path costs, timed alike;
 * - the full read: how busy Chromium's browser process, its main thread, the bus daemon and this
 *   process were while it ran (sampled from /proc every 10 ms), and whether the read is direct;
 * - the CLI's peak RSS for `deskpilot tree --json` (what a user gets), beside `deskpilot apps`.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AtspiAccessibility } from '../src/core/platform/linux/accessibility';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import { collectionFind } from '../src/core/platform/linux/collection-find';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from '../src/core/platform/linux/collection-rule';
import { normalizeRole } from '../src/core/platform/linux/roles';
import { ACTIONABLE_ROLES } from '../src/core/ui/serialize';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage } from '../test/linux/order-compare';
import { a11yBusPid, processCpuMs } from './cpu-share';
import { cliPeakRss } from './cli-rss';
import { median, ms } from './stats';
import { runMain } from './run-main';

const { values } = parseArgs({ options: { size: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' } } });
const root = fileURLToPath(new URL('..', import.meta.url));
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** CPU of one thread (utime + stime), ms. */
function threadCpuMs(pid: number, tid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Samples every 10 ms while `work` runs: the share of samples in which the browser's main
 * thread advanced (ticks are 10 ms, so this is a coarse busy share), and CPU totals.
 */
async function sampled(pid: number, busPid: number | undefined, work: () => Promise<unknown>): Promise<string> {
  const before = { app: processCpuMs(pid), main: threadCpuMs(pid, pid), bus: busPid === undefined ? 0 : processCpuMs(busPid) };
  const self = process.cpuUsage();
  let samples = 0;
  let advanced = 0;
  let last = threadCpuMs(pid, pid);
  const timer = setInterval(() => {
    const now = threadCpuMs(pid, pid);
    samples += 1;
    if (now > last) advanced += 1;
    last = now;
  }, 10);
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  clearInterval(timer);
  const used = process.cpuUsage(self);
  const app = processCpuMs(pid) - before.app;
  const main = threadCpuMs(pid, pid) - before.main;
  const bus = busPid === undefined ? 0 : processCpuMs(busPid) - before.bus;
  return `wall=${ms(wall)} ms  chromium=${app} ms (main thread ${main} ms, busy in ${advanced}/${samples} samples)  bus=${bus} ms  us=${ms((used.user + used.system) / 1000)} ms`;
}

/** Every app's root object (native/linux/atspi.ts, which benches may not import). */
const ROOT_PATH = '/org/a11y/atspi/accessible/root';

/** The AT-SPI role numbers collection-find asks first for a name alone (the actionable roles). */
function firstRoleNumbers(): number[] {
  return Array.from({ length: 130 }, (_unused, index) => index).filter((number) => ACTIONABLE_ROLES.has(normalizeRole(number)));
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  const size = Number(values.size);
  const rounds = Number(values.rounds);
  try {
    const { pid, page } = await openBigPage(desktop, 'chromium', size);
    const accessibility = desktop.platform.accessibility as AtspiAccessibility;
    // Default reads until the mirror holds the page and has settled (two loads agree).
    for (let read = 0; read < 3; read += 1) await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES });
    const whole = await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 });
    const refs = [...whole.refs.values()] as AtspiRef[];
    const bus = refs[0]?.bus as string;
    process.stdout.write(`chromium ${size}: nodes=${countNodes(whole.root)} load ${load()}\n`);

    const query = { name: page.lastButton, limit: 1 };
    const mirrorMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const stats = { ...accessibility.mirrorStats };
      const found = await timed(() => accessibility.findNodes(pid, query));
      const path =
        accessibility.mirrorStats.patchedReads > stats.patchedReads
          ? 'mirror'
          : accessibility.mirrorStats.fullReads > stats.fullReads
            ? 'whole read'
            : 'collection';
      mirrorMs.push(found.ms);
      process.stdout.write(`findNodes #${round + 1}: ${ms(found.ms)} ms via ${path}, ${found.value?.length ?? 'no'} match(es)  load ${load()}\n`);
    }
    const client = await AtspiClient.connect(desktop.session.env);
    await client.connectDirect(bus);
    const app = { pid, bus, gtk4: false, bridge: bridgeOf('Chromium', '') } as Parameters<typeof collectionFind>[1];
    const busPid = a11yBusPid(desktop.session.processIds());
    const collectionMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      let line = '';
      const share = await sampled(pid, busPid, async () => {
        const found = await timed(() => collectionFind(client, app, query));
        collectionMs.push(found.ms);
        line = `${found.value?.length ?? 'no'} match(es)`;
      });
      process.stdout.write(`collectionFind #${round + 1}: ${line}  ${share}\n`);
    }
    // Collection's part alone: the one GetMatches for the roles a model acts on, and how many nodes it names.
    for (let round = 0; round < rounds; round += 1) {
      let count = 0;
      const share = await sampled(pid, busPid, async () => {
        const [refs] = (await client.call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [
          matchRule({ roles: firstRoleNumbers() }),
          SORT_CANONICAL,
          0,
          true,
        ])) as [unknown[]];
        count = refs.length;
      });
      process.stdout.write(`GetMatches (actionable roles) #${round + 1}: ${count} refs  ${share}\n`);
    }
    // A name no actionable node has (a heading): Collection's heading tier after the actionable one (find-tiers.ts).
    {
      let line = '';
      const share = await sampled(pid, busPid, async () => {
        const found = await collectionFind(client, app, { name: 'Section 0', limit: 1 });
        line = `${found?.length ?? 'no'} match(es)`;
      });
      process.stdout.write(`collectionFind "Section 0" (a heading): ${line}  ${share}\n`);
    }
    process.stdout.write(`find medians: mirror path ${ms(median(mirrorMs))} ms, collection path ${ms(median(collectionMs))} ms  load ${load()}\n`);

    for (let round = 0; round < rounds; round += 1) {
      const share = await sampled(pid, busPid, () => desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 }));
      process.stdout.write(`full read #${round + 1}: ${share}  load ${load()}\n`);
    }
    client.close();

    const env = { ...desktop.session.env };
    for (const args of [['apps'], ['tree', '--json', '--pid', String(pid)]]) {
      let peak: Awaited<ReturnType<typeof cliPeakRss>> | undefined;
      const share = await sampled(pid, busPid, async () => (peak = await cliPeakRss(root, args, env)));
      if (peak === undefined) continue;
      process.stdout.write(
        `deskpilot ${args.join(' ')}: peak ${peak.peakMb.toFixed(0)} MB, ${ms(peak.wallMs)} ms, stdout ${(peak.stdoutBytes / 2 ** 20).toFixed(1)} MB  ${share}  load ${load()}\n`,
      );
    }
    // find as a CLI user runs it: a new process, so no mirror: Collection's path, after the process's start.
    const cliFind = await cliPeakRss(root, ['find', '--pid', String(pid), '--name', page.lastButton, '--limit', '1'], env);
    process.stdout.write(
      `deskpilot find --name "${page.lastButton}": exit ${cliFind.exitCode}, ${ms(cliFind.wallMs)} ms, peak ${cliFind.peakMb.toFixed(0)} MB  load ${load()}\n`,
    );
    // What the peak is made of: the same run with V8's old space capped, to find the heap it really needs (the rest is garbage not yet collected).
    for (const capMb of [48, 64, 96, 128]) {
      const capped = await cliPeakRss(root, ['tree', '--json', '--pid', String(pid)], { ...env, NODE_OPTIONS: `--max-old-space-size=${capMb}` });
      process.stdout.write(
        `deskpilot tree --json, old space capped at ${capMb} MB: exit ${capped.exitCode}, peak ${capped.peakMb.toFixed(0)} MB, ${ms(capped.wallMs)} ms, stdout ${(capped.stdoutBytes / 2 ** 20).toFixed(1)} MB  load ${load()}\n`,
      );
    }
  } finally {
    await desktop.stop();
  }
}

runMain(main);

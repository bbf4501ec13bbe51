/**
 * tsx bench/gecko-read.ts [--pages apps,500,manual] [--rounds 5] [--variants walk,order] [--no-pyatspi] — where
 * Firefox's whole read goes, on bench:apps' page, a generated page (bench/pages/big-page.ts) and bzip2's HTML manual:
 * per variant of Gecko's bridge flags, alternated in rounds of one run with python3-pyatspi's
 * dump, the read's median ms (raw fetchTree on a client that has read the app before, and the
 * engine's whole read), calls per node by member, and the CPU Firefox (all its processes), the
 * bus daemon and this process spent per read; the Cache.GetItems call alone (ms, rows, rows the
 * read's tree holds); the late-name wait of a fresh client (late-names.ts); and whether each
 * variant's tree equals the first variant's node for node.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import { bridgeOf, type Bridge } from '../src/core/platform/linux/bridges';
import { awaitPageNames } from '../src/core/platform/linux/late-names';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from '../src/core/platform/linux/collection-rule';
import { fetchTree } from '../src/core/platform/linux/tree-fetch';
import { documentOrder } from '../src/core/platform/linux/tree-order';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { waitFor } from '../test/linux/wait-for';
import { countNodes } from '../src/core/ui/tree-index';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import { describeTree, openBigPage } from '../test/linux/order-compare';
import { TOOLKIT_APPS, launchAppProcess, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { a11yBusPid, processCpuMs } from './cpu-share';
import { median, ms } from './stats';
import { runMain } from './run-main';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: 'apps,500' },
    rounds: { type: 'string', default: '5' },
    variants: { type: 'string', default: 'walk,order' },
    /** Leaves python3-pyatspi out (a 20,000-node page takes it seconds a dump): for the late-name wait and the calls alone. */
    'no-pyatspi': { type: 'boolean', default: false },
  },
});

/** Gecko's bridge flags per variant: what a change to the read is compared against, in one run. */
const VARIANTS: Record<string, Partial<Bridge>> = {
  walk: { order: false },
  order: { order: true },
  /** The order without Gecko's cache rows: every node read by its own calls, no GetItems before the order. */
  nocache: { order: true, cacheItems: false },
};

/** AT-SPI names (native/linux/atspi.ts, which benches may not import). */
const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const CACHE_PATH = '/org/a11y/atspi/cache';
const CACHE = 'org.a11y.atspi.Cache';
const DOCUMENT_WEB = 95;

const calls = countAtspiCalls();
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Firefox and every process under it (its content, GPU and utility processes). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const tree = [root];
  for (let added = true; added;) {
    added = false;
    for (const [pid, parent] of parents)
      if (tree.includes(parent) && !tree.includes(pid)) {
        tree.push(pid);
        added = true;
      }
  }
  return tree;
}

interface Sample {
  ms: number;
  appMs: number;
  contentMs: number;
  busMs: number;
  selfMs: number;
}

async function sampled(pid: number, bus: number | undefined, work: () => Promise<unknown>): Promise<Sample> {
  const children = processTree(pid).filter((each) => each !== pid);
  const cpu = (): [number, number, number] => [
    processCpuMs(pid),
    children.reduce((sum, each) => sum + processCpuMs(each), 0),
    bus === undefined ? 0 : processCpuMs(bus),
  ];
  const before = cpu();
  const self = process.cpuUsage();
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  const used = process.cpuUsage(self);
  const after = cpu();
  return { ms: wall, appMs: after[0] - before[0], contentMs: after[1] - before[1], busMs: after[2] - before[2], selfMs: (used.user + used.system) / 1000 };
}

function summary(samples: readonly Sample[]): string {
  const per = (key: keyof Sample): string => ms(samples.reduce((sum, each) => sum + each[key], 0) / Math.max(1, samples.length));
  return `median=${ms(median(samples.map((each) => each.ms)))} ms  cpu/read: firefox=${per('appMs')} content=${per('contentMs')} bus=${per('busMs')} us=${per('selfMs')} ms`;
}

async function measurePage(desktop: Desktop, pid: number, label: string, rounds: number, variants: string[]): Promise<void> {
  const { refs } = await desktop.engine.observe(pid, WHOLE_READ);
  const bus = ([...refs.values()][0] as AtspiRef).bus;
  const busPid = a11yBusPid(desktop.session.processIds());
  const base = bridgeOf('Gecko', '');
  const options = { bounds: 'none', maxNodes: FULL_READ_MAX_NODES - 1, maxDepth: 1000 } as const;
  const client = await AtspiClient.connect(desktop.session.env);
  try {
    // The late-name wait a fresh client pays once (the page's names are long there by now: this is its floor),
    // and its search for the page's web documents (one Collection search from the root, which at-spi2-atk ends only at the
    // end of the app's tree when it finds fewer than it asks for).
    const fresh = await AtspiClient.connect(desktop.session.env);
    calls.clear();
    const wait = await sampled(pid, busPid, () => awaitPageNames(fresh, bus));
    process.stdout.write(
      `${label}: awaitPageNames (fresh client) ${ms(wait.ms)} ms, firefox cpu ${ms(wait.appMs)} ms, calls ${[...calls].map(([m, c]) => `${m}=${c}`).join(' ')}\n`,
    );
    fresh.close();
    const fromRoot = () =>
      client.call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [matchRule({ roles: [DOCUMENT_WEB] }), SORT_CANONICAL, 16, true]);
    const times: Sample[] = [];
    for (let run = 0; run < 3; run += 1) times.push(await sampled(pid, busPid, fromRoot));
    process.stdout.write(`${label}: its web documents by one search from the root: ${summary(times)}\n`);
    const read = (variant: string) => fetchTree(client, { pid, bus, name: '', gtk4: false, bridge: { ...base, ...VARIANTS[variant] } }, options);
    const first = await read(variants[0] as string);
    const trees = new Map<string, string[]>();
    const samples = new Map<string, Sample[]>(variants.map((variant) => [variant, []]));
    const perNode = new Map<string, string>();
    const engine: Sample[] = [];
    let engineCalls = '';
    const py: Sample[] = [];
    const pyOwn: number[] = [];
    let nodes = describeTree(first).length;
    let pyNodes = 0;
    // The document order alone (tree-order.ts), the first thing the order read waits for.
    const orderTimes: Sample[] = [];
    for (let run = 0; run < 3; run += 1) orderTimes.push(await sampled(pid, busPid, () => documentOrder(client, [bus, ROOT_PATH], FULL_READ_MAX_NODES)));
    process.stdout.write(`${label}: documentOrder alone ${summary(orderTimes)}\n`);
    // GetItems alone: what Gecko's cache holds, and what it costs.
    const items = await sampled(pid, busPid, () => client.call([bus, CACHE_PATH], CACHE, 'GetItems'));
    const [rows] = (await client.call([bus, CACHE_PATH], CACHE, 'GetItems')) as [[unknown, [string, string]][]];
    const walkedPaths = new Set(describeTree(first).map((line) => line.split(' ')[1]));
    const inTree = rows.filter((row) => walkedPaths.has((row[0] as unknown as [string, string])[1])).length;
    process.stdout.write(
      `${label}: GetItems ${ms(items.ms)} ms, firefox cpu ${ms(items.appMs)} ms, rows=${rows.length} in the tree=${inTree} of ${nodes} nodes\n`,
    );
    for (let round = 0; round < rounds; round += 1) {
      for (const variant of variants) {
        calls.clear();
        let tree: Awaited<ReturnType<typeof read>> | undefined;
        (samples.get(variant) as Sample[]).push(await sampled(pid, busPid, async () => (tree = await read(variant))));
        const lines = describeTree(tree as Awaited<ReturnType<typeof read>>);
        if (round === rounds - 1) trees.set(variant, lines);
        nodes = lines.length;
        perNode.set(
          variant,
          `${(totalCalls(calls) / nodes).toFixed(2)} [${[...calls]
            .sort((a, b) => b[1] - a[1])
            .map(([member, count]) => `${member}=${(count / nodes).toFixed(2)}`)
            .join(' ')}]`,
        );
      }
      calls.clear();
      engine.push(await sampled(pid, busPid, () => desktop.engine.observe(pid, WHOLE_READ)));
      engineCalls = [...calls]
        .sort((a, b) => b[1] - a[1])
        .map(([member, count]) => `${member}=${count}`)
        .join(' ');
      // pyatspi's own timing of its dump (3 runs in one process, as bench:apps asks), its start left out.
      if (values['no-pyatspi'] !== true)
        py.push(
          await sampled(pid, busPid, async () => {
            const reference = await pyatspiRead(desktop.session.env, pid, 3);
            pyNodes = reference.nodes;
            pyOwn.push(reference.median_ms);
          }),
        );
    }
    const pyMedian = median(pyOwn);
    process.stdout.write(`${label}: load ${load()}; nodes ours=${nodes} pyatspi=${pyNodes}\n`);
    for (const variant of variants) {
      const own = median((samples.get(variant) as Sample[]).map((each) => each.ms));
      const same = JSON.stringify(trees.get(variant)) === JSON.stringify(trees.get(variants[0] as string));
      process.stdout.write(
        `  ${variant.padEnd(8)} ${summary(samples.get(variant) as Sample[])} ratio=${(pyMedian / own).toFixed(1)}x calls/node=${perNode.get(variant)}${same ? '' : ' TREE DIFFERS'}\n`,
      );
    }
    process.stdout.write(
      `  engine   ${summary(engine)} ratio=${(pyMedian / median(engine.map((each) => each.ms))).toFixed(1)}x (engine.observe whole read) calls: ${engineCalls}\n`,
    );
    process.stdout.write(`  pyatspi  median=${ms(pyMedian)} ms (its own timing); per process of 3 dumps: ${summary(py)}\n`);
  } finally {
    client.close();
  }
}

/** A real document: bzip2's HTML manual (Debian's bzip2 package), open once a whole read holds its last heading and holds still. */
const MANUAL = '/usr/share/doc/bzip2/manual.html';

async function openManual(desktop: Desktop): Promise<number> {
  const home = desktop.session.env['HOME'] as string;
  TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
  desktop.session.launch('/usr/bin/firefox-esr', ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${MANUAL}`], {
    env: { MOZ_ENABLE_WAYLAND: '0' },
  });
  const pid = await waitFor(async () => (await desktop.platform.apps.list().catch(() => [])).find((app) => app.windows.length > 0)?.pid, 60_000, 'firefox');
  let last = -1;
  await waitFor(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const root = (await desktop.engine.observe(pid, WHOLE_READ).catch(() => undefined))?.root;
      const count = root === undefined ? -1 : countNodes(root);
      const done = count === last && count > 500;
      last = count;
      return done ? true : undefined;
    },
    120_000,
    'the manual to load',
  );
  return pid;
}

async function main(): Promise<void> {
  const rounds = Number(values.rounds);
  const variants = String(values.variants).split(',');
  const desktop = await startDesktop({ openbox: true });
  try {
    for (const page of String(values.pages).split(',')) {
      if (page === 'apps') {
        const app = TOOLKIT_APPS.find((each) => each.name === 'firefox-esr');
        if (app === undefined) throw new Error('no firefox-esr app');
        const launched = await launchAppProcess(desktop, app);
        try {
          await measurePage(desktop, launched.pid, 'bench:apps page', rounds, variants);
        } finally {
          await stopAppProcess(launched);
        }
      } else if (page === 'manual') {
        const pid = await openManual(desktop);
        try {
          await measurePage(desktop, pid, 'bzip2 manual', rounds, variants);
        } finally {
          process.kill(pid, 'SIGTERM');
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      } else {
        const { pid } = await openBigPage(desktop, 'firefox', Number(page));
        try {
          await measurePage(desktop, pid, `${page}-node page`, rounds, variants);
        } finally {
          process.kill(pid, 'SIGTERM');
          await new Promise((resolve) => setTimeout(resolve, 2000));
        }
      }
    }
  } finally {
    await desktop.stop();
  }
}

runMain(main);

/**
 * npx tsx bench/read-ab.ts [--base DIR] [--rounds N] [--reads N] [app …] (default featherpad qt6ct calc; also kcalc,
 * office-calc, calc-10000 and the other documents of bench/office-documents.ts)
 * Two source trees' whole reads of the same running app, in alternating worker processes
 * (bench/read-ab-worker.ts, run from each tree), beside python3-pyatspi's warm dump in the same
 * rounds: read ms (medians), calls per read, this process's CPU per read and per D-Bus call, and
 * for Qt the floor's CPU per call (every node's five least calls, nothing else). Both trees'
 * last reads are compared node for node (UiNode: ids, roles, names, values, states, actions).
 * DIR is a copy of the tree before a change (`git archive HEAD | tar -x -C DIR`, node_modules linked).
 * Without --base, this tree alone. `chromium-page-20000` (or `firefox-page-N`) reads a generated page of N nodes
 * (test/linux/order-compare.ts' openBigPage) instead of an app. With --cpu-prof, each worker writes a V8 CPU
 * profile into prof-<label>/ in the run's own directory, printed first (summarize it with bench/cpu-profile-top.ts).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage, type Browser } from '../test/linux/order-compare';
import { TOOLKIT_APPS, isInstalled, launchAppProcess, pyatspiRead, stopAppProcess, type ToolkitApp } from '../test/linux/toolkit-apps';
import { OFFICE_APPS } from './office-documents';
import { median } from './stats';

interface Side {
  nodes: number;
  medianMs: number;
  callsPerRead: number;
  writesPerRead?: number;
  usPerCall: number;
  cpuMsPerRead: number;
  floor?: { ms: number; usPerCall: number };
}

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const base = option('--base');
const rounds = Number(option('--rounds') ?? 5);
const reads = Number(option('--reads') ?? 5);
const cpuProf = args.includes('--cpu-prof');
const valued = new Set([base, option('--rounds'), option('--reads')]);
const names = args.filter((arg) => !arg.startsWith('--') && !valued.has(arg));
/** Generated pages by name: `chromium-page-20000`. */
const pages = names.flatMap((name) => {
  const match = /^(chromium|firefox)-page-(\d+)$/.exec(name);
  return match === null ? [] : [{ name, browser: match[1] as Browser, nodes: Number(match[2]) }];
});
/** This run's files (each side's last tree, the CPU profiles), in a directory of its own: two runs at once never compare each other's trees. */
const OUT = mkdtempSync(path.join(tmpdir(), 'read-ab-'));
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** kcalc (Qt 5, KDE Frameworks): a third Qt app where it is installed, for what featherpad and qt6ct share by chance. */
const KCALC: ToolkitApp = {
  name: 'kcalc',
  toolkit: 'Qt 5 (KF5)',
  binary: '/usr/bin/kcalc',
  args: () => [],
  env: { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1', QT_QPA_PLATFORM: 'xcb' },
  knownText: '7',
  action: { describe: '', target: () => undefined, request: () => ({}), landed: () => false },
};
// bench:office-reads' documents (a sheet of labels and figures, the 10,000-row sheet) by their names there, `office-` before a name both lists use.
const office = OFFICE_APPS.map((app) => (TOOLKIT_APPS.some((each) => each.name === app.name) ? { ...app, name: `office-${app.name}` } : app));
const apps = [...TOOLKIT_APPS, KCALC, ...office].filter(
  (app) => (names.length === 0 ? ['featherpad', 'qt6ct', 'calc'] : names).includes(app.name) && isInstalled(app),
);

const trees =
  base === undefined
    ? [{ label: 'this', dir: HERE }]
    : [
        { label: 'base', dir: path.resolve(base) },
        { label: 'this', dir: HERE },
      ];
// The base tree predates the worker: it gets this one, which imports that tree's own source.
for (const tree of trees) if (tree.dir !== HERE) copyFileSync(path.join(HERE, 'bench/read-ab-worker.ts'), path.join(tree.dir, 'bench/read-ab-worker.ts'));

const desktop = await startDesktop({ openbox: true });
process.stdout.write(`load at start: ${load()}; files in ${OUT}\n`);
try {
  // A page's browser ends with the desktop's session; python3-pyatspi's dump of 20,000 nodes takes too long to run per round.
  const targets: { app: Pick<ToolkitApp, 'name' | 'toolkit'>; launch: () => Promise<{ pid: number; stop: () => Promise<void> }>; py: boolean }[] = [
    ...apps.map((app) => ({
      app,
      py: true,
      launch: async () => {
        const launched = await launchAppProcess(desktop, app);
        return { pid: launched.pid, stop: () => stopAppProcess(launched) };
      },
    })),
    ...pages.map((page) => ({
      app: { name: page.name, toolkit: page.browser },
      py: false,
      launch: async () => {
        const opened = await openBigPage(desktop, page.browser, page.nodes);
        return { pid: opened.pid, stop: () => stopAppProcess(opened) };
      },
    })),
  ];
  for (const { app, launch, py: withPy } of targets) {
    const launched = await launch();
    try {
      const qt = app.toolkit.startsWith('Qt');
      const sides = new Map(trees.map((tree) => [tree.label, [] as Side[]]));
      const py: number[] = [];
      let pyNodes = 0;
      for (let round = 0; round < rounds; round += 1) {
        for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
          const input = { env: desktop.session.env, pid: launched.pid, reads, floor: qt, tree: path.join(OUT, `${app.name}-${tree.label}.json`) };
          const { stdout } = await promisify(execFile)(
            process.execPath,
            [
              ...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${path.join(OUT, `prof-${tree.label}`)}`] : []),
              '--import',
              'tsx',
              path.join(tree.dir, 'bench/read-ab-worker.ts'),
              JSON.stringify(input),
            ],
            {
              cwd: tree.dir,
              timeout: 300_000,
              maxBuffer: 16 * 1024 * 1024,
            },
          );
          sides.get(tree.label)?.push(JSON.parse(stdout.trim().split('\n').at(-1) as string) as Side);
        }
        if (!withPy) continue;
        const dump = await pyatspiRead(desktop.session.env, launched.pid, 2);
        py.push(dump.runs_ms.at(-1) ?? dump.median_ms);
        pyNodes = dump.nodes;
      }
      const pyMs = median(py);
      process.stdout.write(`${app.name} (${app.toolkit}) pyatspi=${pyMs.toFixed(1)} ms (${pyNodes} nodes)\n`);
      for (const [label, runs] of sides) {
        const nodes = runs[0]?.nodes ?? 0;
        const ms = median(runs.map((run) => run.medianMs));
        const calls = median(runs.map((run) => run.callsPerRead));
        const floor = runs.every((run) => run.floor !== undefined)
          ? ` floor=${median(runs.map((run) => run.floor?.ms ?? 0)).toFixed(1)} ms floor_us/call=${median(runs.map((run) => run.floor?.usPerCall ?? 0)).toFixed(1)}`
          : '';
        process.stdout.write(
          `  ${label.padEnd(5)} nodes=${nodes} read=${ms.toFixed(1)} ms ratio=${(pyMs / ms).toFixed(1)}x per_node_ratio=${(pyMs / pyNodes / (ms / nodes)).toFixed(1)}x ` +
            `calls/node=${(calls / nodes).toFixed(2)} writes/read=${median(runs.map((run) => run.writesPerRead ?? 0)).toFixed(0)} cpu/read=${median(runs.map((run) => run.cpuMsPerRead)).toFixed(1)} ms us/call=${median(runs.map((run) => run.usPerCall)).toFixed(1)}${floor}\n`,
        );
      }
      if (trees.length === 2) {
        const [a, b] = trees.map((tree) => readFileSync(path.join(OUT, `${app.name}-${tree.label}.json`), 'utf8').split('\n'));
        const differing = (a ?? []).filter((line, index) => line !== b?.[index]).length + Math.abs((a?.length ?? 0) - (b?.length ?? 0));
        process.stdout.write(
          `  same_tree=${differing === 0} (${differing} of ${a?.length ?? 0} lines differ: diff ${path.join(OUT, `${app.name}-base.json`)} ${path.join(OUT, `${app.name}-this.json`)})\n`,
        );
      }
    } catch (error) {
      process.stdout.write(`${app.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      await launched.stop();
    }
  }
  process.stdout.write(`load at end: ${load()}\n`);
} finally {
  await desktop.stop();
}
process.exit(0);

/**
 * npm run bench:read — full reads and find on generated pages (bench/pages/big-page.ts) in
 * Chromium and Firefox: our whole read in-process (with D-Bus calls per node, by member),
 * python3-pyatspi's dump of the same page in the same run, `deskpilot tree --json` and
 * `deskpilot find` through the CLI (wall time and peak RSS, from /usr/bin/time), and whether
 * find named the last button, which lies past any cut.
 *
 *   npm run bench:read -- [--sizes 2000,20000] [--browsers chromium,firefox] [--pyatspi-max 8000]
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { quickFind } from '../src/core/tools/quick-find';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes, walk } from '../src/core/ui/tree-index';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { BIN, NODE } from '../test/linux/run-cli';
import { TOOLKIT_APPS, chromiumArgs, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { waitFor } from '../test/linux/wait-for';
import { bigPage } from './pages/big-page';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { median, ms, timed } from './stats';
import { a11yBusPid, cpuShare, describeShare } from './cpu-share';
import { runMain } from './run-main';

const RUNS = 3;
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '2000,20000' },
    browsers: { type: 'string', default: 'chromium,firefox' },
    'pyatspi-max': { type: 'string', default: '8000' },
  },
  allowPositionals: true,
});

/** Every D-Bus call the reader makes, by member, for calls-per-node figures. */
const calls = countAtspiCalls();

function browserArgs(browser: string, home: string, file: string): { binary: string; args: string[] } {
  if (browser === 'firefox') {
    // bench:apps' Firefox profile (no first-run tabs: the page is the one tab, and showing).
    TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
    return { binary: '/usr/bin/firefox-esr', args: ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${file}`] };
  }
  return {
    binary: '/usr/bin/chromium',
    args: chromiumArgs(path.join(home, `chromium-${path.basename(file)}`), file),
  };
}

/** A CLI run's wall time and peak RSS, through /usr/bin/time. */
async function cliRun(desktop: Desktop, args: string[]): Promise<{ ms: number; rssMb: number; stdout: string; ok: boolean }> {
  const started = performance.now();
  const result = await promisify(execFile)('/usr/bin/time', ['-f', 'rss_kb=%M', NODE, BIN, ...args], {
    env: desktop.session.env,
    maxBuffer: 512 * 1024 * 1024,
    timeout: 120_000,
  }).then(
    (done) => ({ ...done, ok: true }),
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '', ok: false }),
  );
  const elapsed = performance.now() - started;
  const rss = Number(/rss_kb=(\d+)/.exec(result.stderr)?.[1] ?? 0);
  return { ms: elapsed, rssMb: rss / 1024, stdout: result.stdout, ok: result.ok };
}

async function measure(desktop: Desktop, browser: string, size: number): Promise<string> {
  const home = desktop.session.env['HOME'] as string;
  const page = bigPage(size);
  const file = path.join(home, `big-${size}.html`);
  writeFileSync(file, page.html);
  const { binary, args } = browserArgs(browser, home, file);
  // Apps running before the browser starts; a busy app's list call may time out, which is still "not yet".
  const list = () => desktop.platform.apps.list().catch(() => []);
  const known = new Set((await list()).map((app) => app.pid));
  const child = desktop.session.launch(binary, args, { env: { MOZ_ENABLE_WAYLAND: '0' } });
  let pid = child.pid as number;
  try {
    pid = await waitFor(async () => (await list()).find((app) => !known.has(app.pid) && app.windows.length > 0)?.pid, 60_000, `${browser} to register`);
    // The page is read whole once it holds its last button and its count holds still.
    let last = -1;
    await waitFor(
      async () => {
        // A browser busy laying out a big page can miss a call's deadline: that is still loading, not a failure.
        const root = (await desktop.engine.observe(pid, { fresh: true }).catch(() => undefined))?.root;
        if (root === undefined) return undefined;
        const count = countNodes(root);
        const done = count === last && JSON.stringify(root).includes(`"${page.lastButton}"`);
        last = count;
        if (!done) await new Promise((resolve) => setTimeout(resolve, 500));
        return done ? true : undefined;
      },
      180_000,
      `the ${size}-node page to load in ${browser}`,
    );
    // A whole read, past the event-patched mirror (which serves the default read): what pyatspi's dump is compared with.
    const whole = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
    calls.clear();
    const { root } = await desktop.engine.observe(pid, whole);
    const nodes = countNodes(root);
    const perNode = [...calls].sort((a, b) => b[1] - a[1]).map(([member, count]) => `${member}=${(count / nodes).toFixed(2)}`);
    const allCalls = totalCalls(calls);
    const bus = a11yBusPid(desktop.session.processIds());
    let runs: number[] = [];
    // Who is busy while we read: an app near 100% of the wall time cannot answer faster.
    const ourCpu = await cpuShare(pid, bus, async () => (runs = await timed(RUNS, () => desktop.engine.observe(pid, whole))));
    const ours = median(runs);
    const peakRssMb = process.memoryUsage().rss / 1024 / 1024;
    calls.clear();
    let quick: Awaited<ReturnType<typeof quickFind>>;
    const findMs = median(await timed(RUNS, async () => (quick = await quickFind(desktop.platform, pid, { name: page.lastButton, limit: 20 }))));
    const findCalls = totalCalls(calls) / RUNS;
    // The id Collection gave must be the whole tree's id for that button.
    const treeId = [...walk(root)].find((node) => node.role === 'button' && node.name === page.lastButton)?.id;
    const quickOk = quick?.some((match) => match.node.role === 'button' && match.node.id === treeId) === true;
    calls.clear();
    let byRole: Awaited<ReturnType<typeof quickFind>>;
    const roleMs = median(
      await timed(RUNS, async () => (byRole = await quickFind(desktop.platform, pid, { role: 'button', name: page.lastButton, limit: 20 }))),
    );
    const roleCalls = totalCalls(calls) / RUNS;
    const roleOk = byRole?.[0]?.node.id === treeId;
    let py: Awaited<ReturnType<typeof pyatspiRead>> | undefined;
    const pyCpu = await cpuShare(pid, bus, async () => {
      if (size <= Number(values['pyatspi-max'])) py = await pyatspiRead(desktop.session.env, pid, 1);
    });
    const tree = await cliRun(desktop, ['tree', '--json', '--pid', String(pid)]);
    const wholeJson = tree.ok && !tree.stdout.includes('"cut"') && tree.stdout.includes(`"${page.lastButton}"`);
    const find = await cliRun(desktop, ['find', '--pid', String(pid), '--name', page.lastButton]);
    const found = find.ok && find.stdout.includes(`"${page.lastButton}"`);
    return (
      `${browser.padEnd(9)} ${String(size).padStart(6)}  nodes=${nodes}${root.cut === undefined ? '' : ' (CUT)'}  ours=${ms(ours)} ms  pyatspi=${py === undefined ? '-' : `${ms(py.median_ms)} ms (${py.nodes})`}` +
      `  ratio=${py === undefined ? '-' : `${(py.median_ms / ours).toFixed(1)}x`}  calls/node=${(allCalls / nodes).toFixed(2)} [${perNode.slice(0, 8).join(' ')}]` +
      `\n${''.padEnd(17)}cpu during ours: ${describeShare(ourCpu)}, app ${ms(ourCpu.appMs / RUNS)} ms a read; during pyatspi: app ${ms(pyCpu.appMs)} ms` +
      `\n${''.padEnd(17)}in-process: rss ${peakRssMb.toFixed(0)} MB  find "${page.lastButton}" ${ms(findMs)} ms ${findCalls.toFixed(0)} calls ${quickOk ? 'found, tree id' : 'NOT FOUND (Collection)'}  with role button ${ms(roleMs)} ms ${roleCalls.toFixed(0)} calls ${roleOk ? 'found, tree id' : 'NOT FOUND'}` +
      `\n${''.padEnd(17)}cli tree --json ${ms(tree.ms)} ms rss ${tree.rssMb.toFixed(0)} MB ${wholeJson ? 'whole' : 'NOT WHOLE'}  cli find ${ms(find.ms)} ms rss ${find.rssMb.toFixed(0)} MB ${found ? 'found' : 'NOT FOUND'}`
    );
  } finally {
    // The launcher and the browser it started: the next page reuses the profile.
    await stopAppProcess({ pid, child }, 3000);
  }
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  try {
    const { stdout: load } = await promisify(execFile)('cat', ['/proc/loadavg']);
    process.stdout.write(`session up in ${desktop.session.startupMs} ms; load ${load.trim()}; ${RUNS} runs, medians; pyatspi 1 run.\n`);
    for (const browser of String(values.browsers).split(','))
      for (const size of String(values.sizes).split(',').map(Number)) {
        try {
          process.stdout.write(`${await measure(desktop, browser, size)}\n`);
        } catch (error) {
          process.stdout.write(`${browser} ${size} failed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
      }
  } finally {
    await desktop.stop();
  }
}

runMain(main, 'bench:read');

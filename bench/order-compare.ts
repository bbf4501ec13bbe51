/**
 * tsx bench/order-compare.ts [--browser firefox|chromium] [--size 20000] [--page apps|manual] — a browser's whole
 * read of a page (generated, bench:apps' or bzip2's manual) by the walk (a GetChildren per parent) and by document order
 * (tree-order.ts) on the same page: whether they give the same tree node for node (path, role,
 * name, description, value, states, actions, interfaces), and the calls per node of each, with
 * the order's repeated read (interfaces kept) beside them.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startDesktop } from '../test/linux/desktop';
import path from 'node:path';
import { BROWSER_BINARY, openBigPage, perNode, readTwoWays, type Browser } from '../test/linux/order-compare';
import type { Desktop } from '../test/linux/desktop';
import { TOOLKIT_APPS, chromiumArgs, launchAppProcess } from '../test/linux/toolkit-apps';
import { waitFor } from '../test/linux/wait-for';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes } from '../src/core/ui/tree-index';
import { runMain } from './run-main';

const { values } = parseArgs({
  options: { browser: { type: 'string', default: 'firefox' }, size: { type: 'string', default: '20000' }, page: { type: 'string', default: '' } },
});

/** A real document: bzip2's HTML manual (Debian's bzip2 package). */
const MANUAL = '/usr/share/doc/bzip2/manual.html';

/**
 * The page to compare on: bench:apps' page (`--page apps`, as toolkit-apps.ts opens it), bzip2's
 * manual (`--page manual`, once two whole reads a second apart count the same nodes), or a
 * generated page of `--size` nodes.
 */
async function openPage(desktop: Desktop, browser: Browser): Promise<number> {
  const page = String(values.page);
  if (page === 'apps') {
    const app = TOOLKIT_APPS.find((each) => each.name === (browser === 'firefox' ? 'firefox-esr' : 'chromium'));
    if (app === undefined) throw new Error(`no ${browser} app`);
    return (await launchAppProcess(desktop, app)).pid;
  }
  if (page !== 'manual') return (await openBigPage(desktop, browser, Number(values.size))).pid;
  const home = desktop.session.env['HOME'] as string;
  let args = chromiumArgs(path.join(home, 'chromium-profile'), MANUAL);
  if (browser === 'firefox') {
    TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
    args = ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${MANUAL}`];
  }
  desktop.session.launch(BROWSER_BINARY[browser], args, { env: { MOZ_ENABLE_WAYLAND: '0' } });
  const pid = await waitFor(async () => (await desktop.platform.apps.list().catch(() => [])).find((app) => app.windows.length > 0)?.pid, 60_000, browser);
  let last = -1;
  await waitFor(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const root = (await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 }).catch(() => undefined))?.root;
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
  const browser = String(values.browser) as Browser;
  const desktop = await startDesktop({ openbox: true });
  try {
    const pid = await openPage(desktop, browser);
    const reads = await readTwoWays(desktop, pid, browser === 'firefox' ? 'Gecko' : 'Chromium');
    const nodes = reads.walked.length;
    const differ = reads.walked.findIndex((line, index) => line !== reads.ordered[index]);
    process.stdout.write(
      `${browser} ${String(values.page) || values.size}: nodes walked=${nodes} ordered=${reads.ordered.length}; load ${loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')}\n`,
    );
    process.stdout.write(
      differ < 0 && nodes === reads.ordered.length
        ? 'same tree node for node\n'
        : `first difference at line ${differ}:\n  walk:  ${reads.walked[differ]?.slice(0, 300)}\n  order: ${reads.ordered[differ]?.slice(0, 300)}\n`,
    );
    process.stdout.write(`walk:           ${perNode(reads.walkedCalls, nodes)}\n`);
    process.stdout.write(`order:          ${perNode(reads.orderedCalls, nodes)}\n`);
    process.stdout.write(`order, repeat:  ${perNode(reads.repeatCalls, nodes)}\n`);
  } finally {
    await desktop.stop();
  }
}

runMain(main);

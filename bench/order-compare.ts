/**
 * tsx bench/order-compare.ts [--browser firefox|chromium] [--size 20000] — a browser's whole
 * read of a generated page by the walk (a GetChildren per parent) and by document order
 * (tree-order.ts) on the same page: whether they give the same tree node for node (path, role,
 * name, description, value, states, actions, interfaces), and the calls per node of each, with
 * the order's repeated read (interfaces kept) beside them.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage, perNode, readTwoWays, type Browser } from '../test/linux/order-compare';
import { runMain } from './run-main';

const { values } = parseArgs({ options: { browser: { type: 'string', default: 'firefox' }, size: { type: 'string', default: '20000' } } });

async function main(): Promise<void> {
  const browser = String(values.browser) as Browser;
  const desktop = await startDesktop({ openbox: true });
  try {
    const { pid } = await openBigPage(desktop, browser, Number(values.size));
    const reads = await readTwoWays(desktop, pid, browser === 'firefox' ? 'Gecko' : 'Chromium');
    const nodes = reads.walked.length;
    const differ = reads.walked.findIndex((line, index) => line !== reads.ordered[index]);
    process.stdout.write(
      `${browser} ${values.size}: nodes walked=${nodes} ordered=${reads.ordered.length}; load ${loadavg()
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

/**
 * tsx bench/web-calls.ts [--browser chromium|firefox] [--size 20000] [--rounds 2] — what each
 * call of a whole read costs on a big generated page, and whether the browser answers calls in
 * parallel: every node's GetRole, GetState, GetInterfaces, Properties.GetAll and a Name alone,
 * each sent for all nodes with 8, 32 and 128 calls in flight, then the node read the tree fetch
 * makes (tree-items.ts readNode) with 2, 8 and 32 nodes in flight (8, 32 and 128 calls). Per pass:
 * wall ms, µs per call, and the CPU the browser, the bus daemon and this process spent per call.
 * Rounds alternate, so a load that comes and goes weighs on each pass alike; medians are printed.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import type { AtspiRef } from '../src/core/platform/linux/client';
import { AtspiClient } from '../src/core/platform/linux/client';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { mapLimit } from '../src/core/platform/linux/pool';
import { readNode } from '../src/core/platform/linux/tree-items';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage } from '../test/linux/order-compare';
import { waitFor } from '../test/linux/wait-for';
import { a11yBusPid, cpuShare, type CpuShare } from './cpu-share';
import { median } from './stats';
import { runMain } from './run-main';

const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const PROPERTIES = 'org.freedesktop.DBus.Properties';

const { values } = parseArgs({
  options: {
    browser: { type: 'string', default: 'chromium' },
    size: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '2' },
    /** Only the passes whose label starts with one of these words (comma-separated). */
    only: { type: 'string', default: '' },
  },
});

type Pass = { label: string; calls: number; run: (client: AtspiClient, refs: readonly AtspiRef[]) => Promise<unknown> };

const single = (label: string, inFlight: number, send: (client: AtspiClient, ref: AtspiRef) => Promise<unknown>): Pass => ({
  label: `${label} @${inFlight}`,
  calls: 1,
  run: (client, refs) => mapLimit(refs, inFlight, (ref) => send(client, ref).catch(() => undefined)),
});

function passes(browser: string): Pass[] {
  const bridge = bridgeOf(browser === 'firefox' ? 'Gecko' : 'Chromium', '');
  const methods: [string, (client: AtspiClient, ref: AtspiRef) => Promise<unknown>][] = [
    ['GetRole', (client, ref) => client.call([ref.bus, ref.path], ACCESSIBLE, 'GetRole')],
    ['GetState', (client, ref) => client.call([ref.bus, ref.path], ACCESSIBLE, 'GetState')],
    ['GetInterfaces', (client, ref) => client.call([ref.bus, ref.path], ACCESSIBLE, 'GetInterfaces')],
    ['GetAll', (client, ref) => client.call([ref.bus, ref.path], PROPERTIES, 'GetAll', 's', [ACCESSIBLE])],
    ['Get Name', (client, ref) => client.property([ref.bus, ref.path], ACCESSIBLE, 'Name')],
  ];
  const all: Pass[] = [];
  for (const inFlight of [8, 32, 128]) for (const [label, send] of methods) all.push(single(label, inFlight, send));
  // The four calls of every node as one flat list, not coupled per node: whether mixing them, or waiting for a node's four, costs.
  const reads: [string, (client: AtspiClient, ref: AtspiRef) => Promise<unknown>][] = methods.filter(([label]) => label !== 'Get Name');
  for (const inFlight of [32, 128])
    all.push({
      label: `flat four @${inFlight}`,
      calls: 4,
      run: (client, refs) =>
        mapLimit(
          refs.flatMap((ref) => reads.map(([, send]) => [ref, send] as const)),
          inFlight,
          ([ref, send]) => send(client, ref).catch(() => undefined),
        ),
    });
  for (const nodes of [2, 8, 32, 128])
    all.push({
      label: `readNode @${nodes} nodes`,
      calls: 4,
      run: (client, refs) => mapLimit(refs, nodes, (ref) => readNode(client, [ref.bus, ref.path], 0, bridge).catch(() => undefined)),
    });
  const only = String(values.only)
    .split(',')
    .filter((word) => word !== '');
  return all.filter((pass) => only.length === 0 || only.some((word) => pass.label.startsWith(word)));
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  const size = Number(values.size);
  const browser = values.browser === 'firefox' ? 'firefox' : 'chromium';
  try {
    const { pid, page } = await openBigPage(desktop, browser, size);
    const whole = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
    let last = -1;
    let refs: AtspiRef[] = [];
    await waitFor(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const read = await desktop.engine.observe(pid, whole).catch(() => undefined);
        if (read === undefined) return undefined;
        const count = countNodes(read.root);
        const done = count === last && JSON.stringify(read.root).includes(`"${page.lastButton}"`);
        last = count;
        refs = [...read.refs.values()] as AtspiRef[];
        return done ? true : undefined;
      },
      300_000,
      'page',
    );
    const client = await AtspiClient.connect(desktop.session.env);
    await client.connectDirect(refs[0]?.bus as string);
    const busPid = a11yBusPid(desktop.session.processIds());
    process.stdout.write(
      `${browser} ${size}: nodes=${refs.length} load ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
    );
    const all = passes(browser);
    const shares = new Map<string, CpuShare[]>(all.map((pass) => [pass.label, []]));
    for (let round = 0; round < Number(values.rounds); round += 1)
      for (const pass of all) (shares.get(pass.label) as CpuShare[]).push(await cpuShare(pid, busPid, () => pass.run(client, refs)));
    for (const pass of all) {
      const runs = shares.get(pass.label) as CpuShare[];
      const calls = refs.length * pass.calls;
      const per = (pick: (share: CpuShare) => number): string => ((1000 * median(runs.map(pick))) / calls).toFixed(1).padStart(6);
      process.stdout.write(
        `${pass.label.padEnd(24)} wall=${median(runs.map((share) => share.wallMs))
          .toFixed(0)
          .padStart(
            5,
          )} ms  per call: wall ${per((share) => share.wallMs)} µs  app ${per((share) => share.appMs)}  bus ${per((share) => share.busMs)}  us ${per((share) => share.selfMs)}\n`,
      );
    }
    process.stdout.write(
      `load at the end ${loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}\n`,
    );
    client.close();
  } finally {
    await desktop.stop();
  }
}

runMain(main);

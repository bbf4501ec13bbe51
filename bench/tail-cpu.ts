/**
 * npx tsx bench/tail-cpu.ts --record FILE [--size 20000] — reads a generated Chromium page whole
 * and keeps every D-Bus answer the read got (by object, member and arguments) in FILE.
 * npx tsx bench/tail-cpu.ts --replay FILE [--base DIR] [--rounds N] — this process's CPU for a
 * whole read of that page replayed from FILE: fetchTree against a stand-in client that answers
 * at once from the recording, then the ids and the redaction, as engine.observe does. No app,
 * no bus and no codec: what is left is the reader's own work (the replies' handling, the
 * shape, the build), which a loaded machine cannot blur as it blurs a live read's wall time.
 * With --base, DIR's tree-fetch.ts, ids.ts and redact.ts alternate with this tree's, round by
 * round, and both trees are compared line for line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { mapLimit } from '../src/core/platform/linux/pool';
import { AtspiClient } from '../src/core/platform/linux/client';
import { fakeAtspiClient } from '../src/core/platform/linux/testing/fake-atspi-client';
import type { AppTarget } from '../src/core/platform/linux/tree-fetch';
import type * as TreeFetch from '../src/core/platform/linux/tree-fetch';
import type * as Ids from '../src/core/ui/ids';
import type * as Redact from '../src/core/ui/redact';
import { median } from './stats';

const { values } = parseArgs({
  options: {
    record: { type: 'string' },
    replay: { type: 'string' },
    base: { type: 'string' },
    size: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '7' },
  },
});
const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_NODES = 49_999;
/** AT-SPI's Accessible interface (native/linux/atspi.ts' IFACE.accessible, which a bench may not import). */
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
/** An object on the bus: its bus name and path. */
type ObjectRef = [string, string];

type Answer = { ok: unknown } | { error: string };
const keyOf = (target: ObjectRef, iface: string, member: string, body?: unknown[]): string =>
  `${target[1]} ${iface} ${member} ${body === undefined ? '' : JSON.stringify(body)}`;

async function record(file: string): Promise<void> {
  const { startDesktop } = await import('../test/linux/desktop');
  const { openBigPage } = await import('../test/linux/order-compare');
  const { fetchTree } = await import('../src/core/platform/linux/tree-fetch');
  const answers: Record<string, Answer> = {};
  const keep = (key: string, work: Promise<unknown>): Promise<unknown> =>
    work.then(
      (ok) => ((answers[key] = { ok }), ok),
      (error: unknown) => {
        answers[key] = { error: String(error) };
        throw error;
      },
    );
  const call = AtspiClient.prototype.call;
  const property = AtspiClient.prototype.property;
  const desktop = await startDesktop({ openbox: true });
  try {
    const { pid } = await openBigPage(desktop, 'chromium', Number(values.size));
    const { client, apps } = desktop.platform.accessibility as unknown as { client: AtspiClient; apps: { get(pid: number): Promise<AppTarget> } };
    const app = await apps.get(pid);
    // The grouped node reads and picked GetAlls bypass call and property: read call by call
    // instead, so every answer is recorded through those two (as whole bodies).
    client.callByCall = true;
    AtspiClient.prototype.call = function (this: AtspiClient, target, iface, member, signature, body, timeoutMs) {
      return keep(keyOf(target, iface, member, body), call.call(this, target, iface, member, signature, body, timeoutMs)) as Promise<unknown[]>;
    };
    AtspiClient.prototype.property = function (this: AtspiClient, target, iface, name, timeoutMs) {
      return keep(keyOf(target, iface, `Get ${name}`), property.call(this, target, iface, name, timeoutMs));
    };
    // A fresh client's first read asks every node's interfaces; the next does not: both kinds kept.
    await fetchTree(client, app, { bounds: 'none', maxNodes: MAX_NODES, maxDepth: 1000 });
    await fetchTree(client, app, { bounds: 'none', maxNodes: MAX_NODES, maxDepth: 1000 });
    // This process read the page before (to see it load), so its client knows every node's
    // interfaces and asked none: a replay's first read (a new client) asks them all.
    const paths = Object.keys(answers).flatMap((key) => (key.includes(' GetRole ') ? [key.split(' ')[0] as string] : []));
    await mapLimit(paths, 48, (each) => client.call([app.bus, each], ACCESSIBLE, 'GetInterfaces').catch(() => undefined));
    const { bridge, name, gtk4 } = app;
    writeFileSync(file, JSON.stringify({ app: { pid: 1, bus: app.bus, name, gtk4, bridge: { ...bridge, direct: false } }, answers }));
    process.stdout.write(`recorded ${Object.keys(answers).length} answers to ${file}\n`);
  } finally {
    AtspiClient.prototype.call = call;
    AtspiClient.prototype.property = property;
    await desktop.stop();
  }
}

/**
 * A client that answers every call from the recording, at once (on the next microtask, as a
 * socket's reply would come later), with the real client's call groups and picked GetAlls built
 * on those answers (testing/fake-atspi-client.ts), so a tree that reads nodes in groups does so
 * here too.
 */
function replayClient(answers: Record<string, Answer>): AtspiClient {
  const answer = (key: string): Promise<never> | Promise<unknown> => {
    const found = answers[key];
    if (found === undefined) return Promise.reject(new Error(`not recorded: ${key}`));
    // A fresh copy each time, as a decoded reply is: nothing is shared between reads.
    return 'ok' in found ? Promise.resolve(structuredClone(found.ok)) : Promise.reject(new Error(found.error));
  };
  return fakeAtspiClient({
    call: (target: ObjectRef, iface: string, member: string, _signature?: string, body?: unknown[]) => answer(keyOf(target, iface, member, body)),
    property: (target: ObjectRef, iface: string, name: string) => answer(keyOf(target, iface, `Get ${name}`)),
  } as unknown as AtspiClient);
}

interface Reader {
  label: string;
  read: () => Promise<unknown>;
}

async function readerOf(root: string, label: string, client: AtspiClient, app: AppTarget): Promise<Reader> {
  const fetch = (await import(path.join(root, 'src/core/platform/linux/tree-fetch.ts'))) as typeof TreeFetch;
  const ids = (await import(path.join(root, 'src/core/ui/ids.ts'))) as typeof Ids;
  const redact = (await import(path.join(root, 'src/core/ui/redact.ts'))) as typeof Redact;
  return {
    label,
    read: async () => redact.redactSecrets(ids.buildTree(await fetch.fetchTree(client, app, { bounds: 'none', maxNodes: MAX_NODES, maxDepth: 1000 })).root),
  };
}

async function replay(file: string): Promise<void> {
  const { app, answers } = JSON.parse(readFileSync(file, 'utf8')) as { app: AppTarget; answers: Record<string, Answer> };
  let gcMs = 0;
  new PerformanceObserver((list) => list.getEntries().forEach((entry) => (gcMs += entry.duration))).observe({ entryTypes: ['gc'] });
  const readers = [await readerOf(HERE, 'this', replayClient(answers), app)];
  if (values.base !== undefined) readers.unshift(await readerOf(path.resolve(values.base), 'base', replayClient(answers), app));
  const figures = new Map(readers.map((reader) => [reader.label, { cpu: [] as number[], gc: [] as number[] }]));
  const last = new Map<string, unknown>();
  // Warm-up: the code optimized and each client's interfaces remembered, as in a long-lived process.
  for (const reader of readers) for (let warm = 0; warm < 3; warm += 1) await reader.read();
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round += 1)
    for (const reader of round % 2 === 0 ? readers : [...readers].reverse()) {
      const figure = figures.get(reader.label) as { cpu: number[]; gc: number[] };
      await new Promise((resolve) => setTimeout(resolve, 50));
      gcMs = 0;
      const before = process.cpuUsage();
      last.set(reader.label, await reader.read());
      const spent = process.cpuUsage(before);
      figure.cpu.push((spent.user + spent.system) / 1000);
      // GC entries reach the observer a little after the collection.
      await new Promise((resolve) => setTimeout(resolve, 20));
      figure.gc.push(gcMs);
    }
  process.stdout.write(`replay of ${Object.keys(answers).length} answers, ${rounds} rounds, load ${loadavg()[0]?.toFixed(2)}\n`);
  for (const [label, { cpu, gc }] of figures)
    process.stdout.write(`  ${label}: cpu_ms/read=${median(cpu).toFixed(0)} (min ${Math.min(...cpu).toFixed(0)}) gc_ms/read=${median(gc).toFixed(0)}\n`);
  if (last.size === 2) {
    const [a, b] = [...last.values()].map((tree) => JSON.stringify(tree));
    process.stdout.write(`  same_tree=${a === b} (${(a ?? '').length} bytes)\n`);
  }
}

if (values.record !== undefined) await record(values.record);
else if (values.replay !== undefined) await replay(values.replay);
else throw new Error('--record FILE or --replay FILE');
process.exit(0);

/**
 * npx tsx bench/dbus-client-cpu.ts [--base DIR] [--rounds N] [--calls N] [--in-flight N] — the D-Bus
 * client's own CPU per call (native/linux/dbus*.ts: encoding, the socket, reply matching, promises),
 * apart from any app or bus daemon. A fake peer in a process of its own answers every call at once,
 * in one write per chunk it reads, with the replies a Qt read gets (GetRole, GetState, the Name and
 * Description properties, GetChildren), each carrying a sender and destination as the bus daemon's
 * do. This process makes a Qt read's calls (five per node, `--in-flight` waiting at once) through
 * this tree's client and, with --base, DIR's, alternating round by round in the same process: the
 * median µs of CPU (user + system) per call of each, and their ratio. The peer's own CPU is left out.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveLikeQt } from '../src/core/platform/linux/testing/fake-qt-peer';
import { median } from './stats';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2).filter((arg) => arg !== '--');
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

interface Client {
  call(call: { destination: string; path: string; interface: string; member: string; signature?: string; body?: unknown[] }): Promise<unknown[]>;
  getProperty(destination: string, path: string, iface: string, name: string): Promise<unknown>;
  close(): void;
}

/** A Qt read's calls: five per node, `inFlight` waiting at once, each node's calls sent together. */
async function readLike(connection: Client, calls: number, inFlight: number): Promise<void> {
  const nodes = Math.ceil(calls / 5);
  let next = 0;
  const accessible = 'org.a11y.atspi.Accessible';
  const one = async (): Promise<void> => {
    while (next < nodes) {
      const destination = ':1.42';
      const target = `/org/a11y/atspi/accessible/${next++}`;
      await Promise.all([
        connection.call({ destination, path: target, interface: accessible, member: 'GetRole' }),
        connection.call({ destination, path: target, interface: accessible, member: 'GetState' }),
        connection.getProperty(destination, target, accessible, 'Name'),
        connection.getProperty(destination, target, accessible, 'Description'),
        connection.call({ destination, path: target, interface: accessible, member: 'GetChildren' }),
      ]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(inFlight / 5)) }, one));
}

async function main(): Promise<void> {
  const peerFile = option('--peer');
  if (peerFile !== undefined) {
    serveLikeQt(peerFile, () => process.stdout.write('ready\n'));
    return;
  }
  const base = option('--base');
  const rounds = Number(option('--rounds') ?? 15);
  const calls = Number(option('--calls') ?? 20_000);
  const inFlight = Number(option('--in-flight') ?? 240);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-fake-peer-')), 'bus');
  const peer = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'bench/dbus-client-cpu.ts'), '--peer', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve) => peer.stdout.once('data', () => resolve()));
    const trees = [{ label: 'this', dir: HERE }, ...(base === undefined ? [] : [{ label: 'base', dir: path.resolve(base) }])];
    const sides = await Promise.all(
      trees.map(async (tree) => {
        const { DbusConnection } = (await import(path.join(tree.dir, 'native/linux/dbus.ts'))) as {
          DbusConnection: { connect(address: string, timeoutMs: number, options: { peer: boolean }): Promise<Client> };
        };
        const connection = await DbusConnection.connect(`unix:path=${file}`, 5000, { peer: true });
        return { ...tree, connection, usPerCall: [] as number[] };
      }),
    );
    // Warm up: the first calls run before the code is optimized.
    for (const side of sides) for (let run = 0; run < 3; run += 1) await readLike(side.connection, calls, inFlight);
    for (let round = 0; round < rounds; round += 1) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const before = process.cpuUsage();
        await readLike(side.connection, calls, inFlight);
        const spent = process.cpuUsage(before);
        side.usPerCall.push((spent.user + spent.system) / calls);
      }
    }
    const [mine, theirs] = sides.map((side) => median(side.usPerCall));
    for (const side of sides)
      process.stdout.write(
        `${side.label.padEnd(5)} cpu_us/call=${median(side.usPerCall).toFixed(2)} (${rounds} rounds of ${calls} calls, ${inFlight} in flight)\n`,
      );
    if (theirs !== undefined && mine !== undefined)
      process.stdout.write(`dbus-client: base/this=${(theirs / mine).toFixed(2)}x load=${loadavg()[0]?.toFixed(2)}\n`);
    for (const side of sides) side.connection.close();
  } finally {
    peer.kill();
  }
}

await main();

/**
 * One side of bench/read-ab.ts, run in a process of its own from the source tree it measures:
 * whole reads of one app through the engine, as bench:apps times them, then (for a bridge that
 * answers one fact per message) the floor's calls, each with this process's CPU per D-Bus call.
 * Prints one JSON line; writes the tree (ids, roles, names, values, states, no platform refs) to `--tree`.
 */
import { writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { ActionEngine } from '../src/core/actions/engine';
import { createLinuxPlatform } from '../src/core/platform/linux';
import type { AtspiRef } from '../src/core/platform/linux/client';
import { AtspiClient } from '../src/core/platform/linux/client';
import { mapLimit } from '../src/core/platform/linux/pool';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import type { UiNode } from '../src/shared/ui-node';
import { countAtspiCalls, totalCalls } from './atspi-calls';

const WHOLE_READ = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const input = JSON.parse(process.argv[2] ?? '{}') as { env: Record<string, string>; pid: number; reads: number; floor: boolean; tree?: string };
const calls = countAtspiCalls();
/** Writes to sockets (the D-Bus connections' batches, and the few of X11): how well a read's calls are batched. */
let writes = 0;
const write = Socket.prototype.write as (...args: unknown[]) => boolean;
Socket.prototype.write = function (this: Socket, ...args: unknown[]): boolean {
  writes += 1;
  return write.apply(this, args);
} as typeof Socket.prototype.write;
const platform = await createLinuxPlatform(input.env);
const engine = new ActionEngine({ platform });
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
/** A tree without what differs between two reads of the same app: Qt makes a view's cell objects anew per read. */
const plain = (node: UiNode): unknown => {
  const { children, ...fields } = node;
  return { ...fields, ...(children === undefined ? {} : { children: children.map(plain) }) };
};
try {
  // The first read warms the process (and the kept interfaces), as a session's first read does.
  const first = await engine.observe(input.pid, WHOLE_READ);
  calls.clear();
  writes = 0;
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let read = 0; read < input.reads; read += 1) {
    const started = performance.now();
    await engine.observe(input.pid, WHOLE_READ);
    times.push(performance.now() - started);
  }
  const readCpu = cpuMs(cpu);
  const readCalls = totalCalls(calls);
  const readWrites = writes;
  const last = await engine.observe(input.pid, WHOLE_READ);
  if (input.tree !== undefined) writeFileSync(input.tree, JSON.stringify(plain(last.root), null, 1));
  let floor: { ms: number; usPerCall: number } | undefined;
  if (input.floor) {
    const client = await AtspiClient.connect(input.env);
    const refs = [...first.refs.values()] as AtspiRef[];
    const one = (ref: AtspiRef): Promise<unknown> =>
      Promise.all(
        [
          client.call([ref.bus, ref.path], ACCESSIBLE, 'GetRole'),
          client.call([ref.bus, ref.path], ACCESSIBLE, 'GetState'),
          client.property([ref.bus, ref.path], ACCESSIBLE, 'Name'),
          client.property([ref.bus, ref.path], ACCESSIBLE, 'Description'),
          client.call([ref.bus, ref.path], ACCESSIBLE, 'GetChildren'),
        ].map((call) => call.catch(() => undefined)),
      );
    await mapLimit(refs, 51, one);
    const floorCpu = process.cpuUsage();
    const started = performance.now();
    for (let round = 0; round < input.reads; round += 1) await mapLimit(refs, 51, one);
    floor = { ms: (performance.now() - started) / input.reads, usPerCall: (1000 * cpuMs(floorCpu)) / (5 * refs.length * input.reads) };
    client.close();
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      nodes: first.refs.size,
      medianMs: times[Math.floor(times.length / 2)],
      callsPerRead: readCalls / input.reads,
      writesPerRead: readWrites / input.reads,
      usPerCall: (1000 * readCpu) / readCalls,
      cpuMsPerRead: readCpu / input.reads,
      floor,
    })}\n`,
  );
} finally {
  await platform.close();
}
process.exit(0);

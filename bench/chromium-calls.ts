/**
 * tsx bench/chromium-calls.ts [--size 20000] [--sample 2000] — what each AT-SPI call costs
 * Chromium on a generated page of `size` nodes (issue 27): for each call type, a sample of the
 * page's nodes asked one call each (pipelined as a read pipelines them), with our wall time and
 * Chromium's own CPU (its browser process, from /proc) per call; then the Collection queries a
 * name-only find makes (every role, the roles a model acts on, headings), each with its refs.
 * Back to back in one run, with the load printed, since the machine is shared.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import { collectionFind } from '../src/core/platform/linux/collection-find';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from '../src/core/platform/linux/collection-rule';
import { mapLimit } from '../src/core/platform/linux/pool';
import { normalizeRole } from '../src/core/platform/linux/roles';
import { ACTIONABLE_ROLES } from '../src/core/ui/serialize';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage } from '../test/linux/order-compare';
import { processCpuMs } from './cpu-share';
import { ms } from './stats';
import { runMain } from './run-main';

const { values } = parseArgs({ options: { size: { type: 'string', default: '20000' }, sample: { type: 'string', default: '2000' } } });
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
/** Interface names (native/linux/atspi.ts, which benches may not import). */
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
const ROOT_PATH = '/org/a11y/atspi/accessible/root';
/** Calls in flight, as a read pipelines them. */
const CONCURRENCY = 48;

type Target = [string, string];

async function measured(label: string, pid: number, count: number, work: () => Promise<unknown>): Promise<void> {
  const cpu = processCpuMs(pid);
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  const used = processCpuMs(pid) - cpu;
  const per = count > 0 ? `  per call: wall ${((wall * 1000) / count).toFixed(1)} µs, chromium ${((used * 1000) / count).toFixed(1)} µs` : '';
  process.stdout.write(`${label.padEnd(40)} n=${String(count).padStart(6)}  wall=${ms(wall)} ms  chromium=${used} ms${per}  load ${load()}\n`);
}

function roleNumbers(keep: (role: ReturnType<typeof normalizeRole>) => boolean): number[] {
  return Array.from({ length: 130 }, (_unused, index) => index).filter((number) => keep(normalizeRole(number)));
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  const size = Number(values.size);
  const sample = Number(values.sample);
  try {
    const { pid } = await openBigPage(desktop, 'chromium', size);
    const whole = await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 });
    const refs = [...whole.refs.values()] as AtspiRef[];
    const bus = refs[0]?.bus as string;
    const client = await AtspiClient.connect(desktop.session.env);
    await client.connectDirect(bus);
    const targets: Target[] = refs.filter((ref) => ref.bus === bus).map((ref) => [bus, ref.path]);
    const step = Math.max(1, Math.floor(targets.length / sample));
    const picked = targets.filter((_target, index) => index % step === 0).slice(0, sample);
    process.stdout.write(`chromium ${size}: ${targets.length} nodes read, ${picked.length} sampled  load ${load()}\n`);
    const each = (call: (target: Target) => Promise<unknown>) => () => mapLimit(picked, CONCURRENCY, call);
    const calls: [string, (target: Target) => Promise<unknown>][] = [
      ['GetRole', (target) => client.call(target, ACCESSIBLE, 'GetRole')],
      ['GetState', (target) => client.call(target, ACCESSIBLE, 'GetState')],
      ['GetAll(Accessible)', (target) => client.call(target, PROPERTIES, 'GetAll', 's', [ACCESSIBLE])],
      ['Get Name', (target) => client.property(target, ACCESSIBLE, 'Name')],
      ['Get ChildCount', (target) => client.property(target, ACCESSIBLE, 'ChildCount')],
      ['Get Description', (target) => client.property(target, ACCESSIBLE, 'Description')],
      ['Get Parent', (target) => client.property(target, ACCESSIBLE, 'Parent')],
      ['GetChildren', (target) => client.call(target, ACCESSIBLE, 'GetChildren')],
      ['GetAttributes', (target) => client.call(target, ACCESSIBLE, 'GetAttributes')],
      ['GetInterfaces', (target) => client.call(target, ACCESSIBLE, 'GetInterfaces')],
      ['GetIndexInParent', (target) => client.call(target, ACCESSIBLE, 'GetIndexInParent')],
    ];
    for (let round = 0; round < 2; round += 1) for (const [label, call] of calls) await measured(`${label} #${round + 1}`, pid, picked.length, each(call));
    const rules: [string, number[] | undefined][] = [
      ['every role', undefined],
      ['actionable roles', roleNumbers((role) => ACTIONABLE_ROLES.has(role))],
      ['heading', roleNumbers((role) => role === 'heading')],
    ];
    for (const [label, roles] of rules) {
      let count = 0;
      await measured(`GetMatches ${label}`, pid, 1, async () => {
        const [found] = (await client.call(
          [bus, ROOT_PATH],
          COLLECTION,
          'GetMatches',
          `${RULE}uib`,
          [
            matchRule(roles === undefined ? {} : { roles }),
            SORT_CANONICAL,
            0,
            true,
            // Every role takes near a second quiet: more than the client's default wait on a loaded machine.
          ],
          30_000,
        )) as [unknown[]];
        count = found.length;
      });
      process.stdout.write(`  -> ${count} refs\n`);
    }
    const app = { pid, bus, gtk4: false, bridge: bridgeOf('Chromium', '') } as Parameters<typeof collectionFind>[1];
    for (const name of ['Section 3', 'Act 5']) {
      let line = '';
      await measured(`collectionFind "${name}"`, pid, 1, async () => {
        const found = await collectionFind(client, app, { name, limit: 1 });
        line = (found ?? []).map((match) => `${match.node.role} "${match.node.name}" ${match.slot.parentSlot}/${match.slot.roleIndex}`).join(', ');
      });
      process.stdout.write(`  -> ${line || 'none'}\n`);
    }
    client.close();
  } finally {
    await desktop.stop();
  }
}

runMain(main);

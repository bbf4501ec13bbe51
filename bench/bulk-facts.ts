/**
 * tsx bench/bulk-facts.ts [--size 20000] [--rounds 2] [--only whole,GetRole,node,…] — whether a
 * whole read of a big Chromium page can ask fewer calls per node (issue 27). Per pass, our wall
 * time and Chromium's own CPU (its browser process, from /proc): the engine's whole read (with our
 * CPU and calls per node); the document order alone; each per-node call over every node, alone
 * and a node's three sent together as a read sends them; Collection queries that would give the
 * same facts in bulk: a role rule and a state rule that match few nodes (what a walk of the page
 * costs), a state rule paged in document order over many (what each ref returned costs), one
 * query per role present, roles as five code-bit queries, states as the nodes with a decoded bit,
 * the disabled and the showing ones (each checked against GetRole and GetState node for node), and
 * the read such a scheme would make (both, then every node's GetAll). Passes alternate in rounds,
 * so a load that comes and goes weighs on each alike; the load is printed on every line.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import { COLLECTION, RULE, SORT_CANONICAL, bitWords } from '../src/core/platform/linux/collection-rule';
import { mapLimit } from '../src/core/platform/linux/pool';
import { documentOrder } from '../src/core/platform/linux/tree-order';
import { fetchTree } from '../src/core/platform/linux/tree-fetch';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { startDesktop } from '../test/linux/desktop';
import { describeTree, openBigPage } from '../test/linux/order-compare';
import { processCpuMs } from './cpu-share';
import { ms } from './stats';
import { decodeStates, hasState } from '../src/core/platform/linux/states';
import { runMain } from './run-main';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '2' }, only: { type: 'string', default: '' } },
});
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
/** Interface names and numbers (native/linux/atspi.ts, which benches may not import). */
const ACCESSIBLE = 'org.a11y.atspi.Accessible';
const PROPERTIES = 'org.freedesktop.DBus.Properties';
const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const [MATCH_ALL, MATCH_ANY, MATCH_NONE] = [1, 2, 3];
const TREE_INORDER = 2;
const ROLE_HEADING = 83;
const [STATE_FOCUSED, STATE_ENABLED, STATE_FOCUSABLE, STATE_SHOWING] = [12, 8, 11, 25];
/** Every state bit the tree decodes past enabled and visible (states.ts, tree-values.ts' capabilities and roleOf), and DEFUNCT. */
const UNUSUAL_STATES = [4, 6, 7, 9, 10, 11, 12, 20, 22, 23, 26, 32, 41, 43];

function popcount(value: number): number {
  let count = 0;
  for (let rest = value; rest > 0; rest >>= 1) count += rest & 1;
  return count;
}
/** Calls in flight, as tree-order.ts's reads keep them (48 nodes of three calls). */
const CONCURRENCY = 48;
const PAGE = 1000;

type Rule = unknown[];

function rule({
  states = [],
  stateMatch = MATCH_ALL,
  roles,
  roleMatch = MATCH_ANY,
}: {
  states?: number[];
  stateMatch?: number;
  roles?: number[];
  roleMatch?: number;
}): Rule {
  return [bitWords(states, 2), stateMatch, {}, MATCH_ALL, bitWords(roles ?? [], 4), roles === undefined ? MATCH_ALL : roleMatch, [], MATCH_ALL, false];
}

/** Every match of `match` under the root, paged in document order as tree-order.ts pages the whole order. */
async function pagedMatches(client: AtspiClient, bus: string, match: Rule): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set<string>();
  let from = ROOT_PATH;
  for (let pages = 0; pages < 100; pages += 1) {
    const [page] = (await client.call(
      [bus, ROOT_PATH],
      COLLECTION,
      'GetMatchesFrom',
      `o${RULE}uuib`,
      [from, match, SORT_CANONICAL, TREE_INORDER, PAGE, true],
      30_000,
    )) as [[string, string][]];
    let repeated = false;
    for (const [, path] of page) {
      if (seen.has(path)) {
        repeated = true;
        continue;
      }
      seen.add(path);
      found.push(path);
    }
    const last = page[page.length - 1];
    if (repeated || page.length < PAGE || last === undefined) break;
    from = last[1];
  }
  return found;
}

async function matches(client: AtspiClient, bus: string, match: Rule): Promise<number> {
  const [found] = (await client.call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [match, SORT_CANONICAL, 0, true], 30_000)) as [unknown[]];
  return found.length;
}

interface Pass {
  label: string;
  /** Calls sent; refs or answers returned as `out`. */
  run: () => Promise<{ calls: number; out: number }>;
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  const size = Number(values.size);
  try {
    const { pid } = await openBigPage(desktop, 'chromium', size);
    const client = await AtspiClient.connect(desktop.session.env);
    const whole = await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 });
    const busName = ([...whole.refs.values()][0] as AtspiRef).bus;
    await client.connectDirect(busName);
    const order = (await documentOrder(client, [busName, ROOT_PATH], 100_000)) ?? [];
    process.stdout.write(`chromium ${size}: ${order.length} nodes in document order  load ${load()}\n`);
    const each = (send: (path: string) => Promise<unknown>) => async () => {
      await mapLimit(order, CONCURRENCY, (path) => send(path).catch(() => undefined));
      return { calls: order.length, out: order.length };
    };
    const roles = new Map<string, number>();
    const states = new Map<string, number[]>();
    const app = { pid, bus: busName, name: '', gtk4: false, bridge: bridgeOf('Chromium', '') };
    const passes: Pass[] = [
      {
        label: 'whole read (fetchTree)',
        run: async () => {
          const ours = process.cpuUsage();
          let calls = 0;
          const call = client.call.bind(client);
          client.call = ((...args: Parameters<AtspiClient['call']>) => ((calls += 1), call(...args))) as AtspiClient['call'];
          const tree = await fetchTree(client, app, { bounds: 'none', maxNodes: FULL_READ_MAX_NODES - 1, maxDepth: 1000 }).finally(() => (client.call = call));
          const used = process.cpuUsage(ours);
          const lines = describeTree(tree);
          process.stdout.write(`  our CPU ${Math.round((used.user + used.system) / 1000)} ms, ${calls} calls (${(calls / lines.length).toFixed(2)}/node)\n`);
          return { calls: 0, out: lines.length };
        },
      },
      {
        label: 'order (GetMatchesFrom every node)',
        run: async () => ({ calls: Math.ceil(order.length / PAGE) + 1, out: (await documentOrder(client, [busName, ROOT_PATH], 100_000))?.length ?? 0 }),
      },
      {
        label: 'GetRole',
        run: each(async (path) => {
          const [role] = await client.call([busName, path], ACCESSIBLE, 'GetRole');
          roles.set(path, Number(role));
        }),
      },
      {
        label: 'GetState',
        run: each(async (path) => {
          const [words] = await client.call([busName, path], ACCESSIBLE, 'GetState');
          states.set(path, words as number[]);
        }),
      },
      { label: 'GetAll', run: each((path) => client.call([busName, path], PROPERTIES, 'GetAll', 's', [ACCESSIBLE])) },
      // A node's calls sent together, as a read sends them: what GetRole and GetState add to a GetAll
      // already on its way, which is less than either costs alone.
      {
        label: 'node: GetAll alone',
        run: each((path) => client.call([busName, path], PROPERTIES, 'GetAll', 's', [ACCESSIBLE])),
      },
      {
        label: 'node: GetRole+GetState+GetAll',
        run: each((path) =>
          Promise.all([
            client.call([busName, path], ACCESSIBLE, 'GetRole'),
            client.call([busName, path], ACCESSIBLE, 'GetState'),
            client.call([busName, path], PROPERTIES, 'GetAll', 's', [ACCESSIBLE]),
          ]),
        ),
      },
      { label: 'Get Name', run: each((path) => client.property([busName, path], ACCESSIBLE, 'Name')) },
      { label: 'Get ChildCount', run: each((path) => client.property([busName, path], ACCESSIBLE, 'ChildCount')) },
      {
        label: 'GetMatches heading (role rule, few refs)',
        run: async () => ({ calls: 1, out: await matches(client, busName, rule({ roles: [ROLE_HEADING] })) }),
      },
      {
        label: 'GetMatches FOCUSED (state rule, few refs)',
        run: async () => ({ calls: 1, out: await matches(client, busName, rule({ states: [STATE_FOCUSED] })) }),
      },
      {
        label: 'GetMatches NOT ENABLED (state NONE, few)',
        run: async () => ({ calls: 1, out: await matches(client, busName, rule({ states: [STATE_ENABLED], stateMatch: MATCH_NONE })) }),
      },
      {
        label: 'paged FOCUSABLE (state rule, many refs)',
        run: async () => ({ calls: 0, out: (await pagedMatches(client, busName, rule({ states: [STATE_FOCUSABLE] }))).length }),
      },
      {
        label: 'paged roles one query per role present',
        run: async () => {
          const present = [...new Set(roles.values())];
          if (present.length === 0) return { calls: 0, out: 0 };
          const bulk = new Map<string, number>();
          for (const role of present) for (const path of await pagedMatches(client, busName, rule({ roles: [role] }))) bulk.set(path, role);
          let wrong = 0;
          for (const [path, role] of roles) if (bulk.get(path) !== role) wrong += 1;
          process.stdout.write(`  roles present ${present.length}; bulk roles differing from GetRole: ${wrong} of ${roles.size}\n`);
          return { calls: present.length, out: bulk.size };
        },
      },
      {
        label: 'paged roles: NONE of the commonest role',
        run: async () => {
          const counts = new Map<number, number>();
          for (const role of roles.values()) counts.set(role, (counts.get(role) ?? 0) + 1);
          const commonest = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
          if (commonest === undefined) return { calls: 0, out: 0 };
          return { calls: 0, out: (await pagedMatches(client, busName, rule({ roles: [commonest], roleMatch: MATCH_NONE }))).length };
        },
      },
      {
        // The least a bulk read of states could ask: nodes with any bit that decodes to more than
        // enabled and visible (then asked GetState), nodes not enabled (likewise), and the showing
        // ones; every other node's decoded states follow from those answers alone.
        label: 'states bulk: 3 queries + GetState of the unusual',
        run: async () => {
          const unusual = new Set(await pagedMatches(client, busName, rule({ states: UNUSUAL_STATES, stateMatch: MATCH_ANY })));
          for (const path of await pagedMatches(client, busName, rule({ states: [STATE_ENABLED], stateMatch: MATCH_NONE }))) unusual.add(path);
          const showing = new Set(await pagedMatches(client, busName, rule({ states: [STATE_SHOWING] })));
          const asked = new Map<string, number[]>();
          await mapLimit([...unusual], CONCURRENCY, async (path) => {
            const [words] = await client.call([busName, path], ACCESSIBLE, 'GetState').catch(() => [[0, 0]]);
            asked.set(path, words as number[]);
          });
          let wrong = 0;
          for (const [path, real] of states) {
            const bulk = asked.get(path) ?? bitWords([STATE_ENABLED, ...(showing.has(path) ? [STATE_SHOWING] : [])], 2);
            const decode = (words: number[]): string =>
              JSON.stringify(decodeStates(words, { gtk4: false, secret: false })) + String(hasState(words, STATE_FOCUSABLE));
            if (decode(bulk) !== decode(real)) wrong += 1;
          }
          process.stdout.write(`  unusual ${unusual.size}, showing ${showing.size}; decoded states differing from GetState: ${wrong} of ${states.size}\n`);
          return { calls: 3 + unusual.size, out: order.length };
        },
      },
      {
        // Roles as bits of a code, one query a bit (MATCH_ANY over the roles whose code has it):
        // the commonest role gets code 0, the next ones one bit each, and so on; plus one query for
        // roles outside the table (asked GetRole). The table comes from GetRole's pass.
        label: 'roles bulk: one query per code bit',
        run: async () => {
          const counts = new Map<number, number>();
          for (const role of roles.values()) counts.set(role, (counts.get(role) ?? 0) + 1);
          const byCount = [...counts].sort((a, b) => b[1] - a[1]).map(([role]) => role);
          const bits = Math.max(1, Math.ceil(Math.log2(byCount.length)));
          const codes = Array.from({ length: 1 << bits }, (_unused, code) => code).sort((a, b) => popcount(a) - popcount(b) || a - b);
          const codeOf = new Map(byCount.map((role, index) => [role, codes[index] as number]));
          const code = new Map<string, number>();
          for (let bit = 0; bit < bits; bit += 1) {
            const set = byCount.filter((role) => ((codeOf.get(role) as number) >> bit) & 1);
            for (const path of await pagedMatches(client, busName, rule({ roles: set }))) code.set(path, (code.get(path) ?? 0) | (1 << bit));
          }
          const others = Array.from({ length: 130 }, (_unused, role) => role).filter((role) => !codeOf.has(role));
          const strays = await pagedMatches(client, busName, rule({ roles: others }));
          const roleOfCode = new Map([...codeOf].map(([role, value]) => [value, role]));
          let wrong = 0;
          for (const [path, role] of roles) if (roleOfCode.get(code.get(path) ?? 0) !== role) wrong += 1;
          process.stdout.write(
            `  ${byCount.length} roles in ${bits} bits, ${strays.length} outside the table; roles differing from GetRole: ${wrong} of ${roles.size}\n`,
          );
          return { calls: bits + 1, out: order.length };
        },
      },
      {
        // The read a bulk scheme would make: the two passes above, then every node's GetAll (which
        // nothing in Collection gives). Beside 'node: GetRole+GetState+GetAll' in the same round.
        label: 'node: bulk roles and states, then GetAll',
        run: async () => {
          for (const label of ['roles bulk', 'states bulk']) await passes.find((pass) => pass.label.startsWith(label))?.run();
          return each((path) => client.call([busName, path], PROPERTIES, 'GetAll', 's', [ACCESSIBLE]))();
        },
      },
    ];
    const only = String(values.only)
      .split(',')
      .filter((word) => word !== '');
    const picked = passes.filter((pass) => only.length === 0 || only.some((word) => pass.label.startsWith(word)));
    for (let round = 1; round <= Number(values.rounds); round += 1)
      for (const pass of picked) {
        const cpu = processCpuMs(pid);
        const started = performance.now();
        const { calls, out } = await pass.run();
        const wall = performance.now() - started;
        const used = processCpuMs(pid) - cpu;
        const per = calls > 0 ? `  per call: wall ${((wall * 1000) / calls).toFixed(1)} µs, chromium ${((used * 1000) / calls).toFixed(1)} µs` : '';
        process.stdout.write(
          `#${round} ${pass.label.padEnd(44)} out=${String(out).padStart(6)}  wall=${ms(wall)} ms  chromium=${used} ms${per}  load ${load()}\n`,
        );
      }
    client.close();
  } finally {
    await desktop.stop();
  }
}

runMain(main);

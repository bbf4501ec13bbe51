/**
 * tsx bench/bulk-facts.ts [--size 20000] [--rounds 2] [--only order,GetRole,…] — whether a whole
 * read of a big Chromium page can ask fewer calls per node (issue 27): what Chromium's own CPU
 * (its browser process, from /proc) and our wall time are for each per-node call over every node
 * of the page, beside Collection queries that would give the same facts in bulk: a role rule and
 * a state rule that match few nodes (what a traversal costs), the same rules paged in document
 * order over many nodes (what each ref returned costs), and every role's nodes by one query per
 * role present (the roles of the whole page in bulk), checked against GetRole node for node.
 * Passes alternate in rounds, so a load that comes and goes weighs on each alike; the load is
 * printed on every line.
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import { COLLECTION, RULE, SORT_CANONICAL, bitWords } from '../src/core/platform/linux/collection-rule';
import { mapLimit } from '../src/core/platform/linux/pool';
import { documentOrder } from '../src/core/platform/linux/tree-order';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { startDesktop } from '../test/linux/desktop';
import { openBigPage } from '../test/linux/order-compare';
import { processCpuMs } from './cpu-share';
import { ms } from './stats';
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
const [STATE_FOCUSED, STATE_ENABLED, STATE_FOCUSABLE] = [12, 8, 11];
/** Calls in flight, as tree-order.ts's reads keep them (48 nodes of three calls). */
const CONCURRENCY = 48;
const PAGE = 1000;

type Rule = unknown[];

function rule({ states = [], stateMatch = MATCH_ALL, roles, roleMatch = MATCH_ANY }: { states?: number[]; stateMatch?: number; roles?: number[]; roleMatch?: number }): Rule {
  return [bitWords(states, 2), stateMatch, {}, MATCH_ALL, bitWords(roles ?? [], 4), roles === undefined ? MATCH_ALL : roleMatch, [], MATCH_ALL, false];
}

/** Every match of `match` under the root, paged in document order as tree-order.ts pages the whole order. */
async function pagedMatches(client: AtspiClient, bus: string, match: Rule): Promise<string[]> {
  const found: string[] = [];
  const seen = new Set<string>();
  let from = ROOT_PATH;
  for (let pages = 0; pages < 100; pages += 1) {
    const [page] = (await client.call([bus, ROOT_PATH], COLLECTION, 'GetMatchesFrom', `o${RULE}uuib`, [from, match, SORT_CANONICAL, TREE_INORDER, PAGE, true], 30_000)) as [
      [string, string][],
    ];
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
    const passes: Pass[] = [
      { label: 'order (GetMatchesFrom every node)', run: async () => ({ calls: Math.ceil(order.length / PAGE) + 1, out: (await documentOrder(client, [busName, ROOT_PATH], 100_000))?.length ?? 0 }) },
      {
        label: 'GetRole',
        run: each(async (path) => {
          const [role] = await client.call([busName, path], ACCESSIBLE, 'GetRole');
          roles.set(path, Number(role));
        }),
      },
      { label: 'GetState', run: each((path) => client.call([busName, path], ACCESSIBLE, 'GetState')) },
      { label: 'GetAll', run: each((path) => client.call([busName, path], PROPERTIES, 'GetAll', 's', [ACCESSIBLE])) },
      { label: 'Get Name', run: each((path) => client.property([busName, path], ACCESSIBLE, 'Name')) },
      { label: 'Get ChildCount', run: each((path) => client.property([busName, path], ACCESSIBLE, 'ChildCount')) },
      { label: 'GetMatches heading (role rule, few refs)', run: async () => ({ calls: 1, out: await matches(client, busName, rule({ roles: [ROLE_HEADING] })) }) },
      { label: 'GetMatches FOCUSED (state rule, few refs)', run: async () => ({ calls: 1, out: await matches(client, busName, rule({ states: [STATE_FOCUSED] })) }) },
      {
        label: 'GetMatches NOT ENABLED (state NONE, few)',
        run: async () => ({ calls: 1, out: await matches(client, busName, rule({ states: [STATE_ENABLED], stateMatch: MATCH_NONE })) }),
      },
      { label: 'paged FOCUSABLE (state rule, many refs)', run: async () => ({ calls: 0, out: (await pagedMatches(client, busName, rule({ states: [STATE_FOCUSABLE] }))).length }) },
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
        process.stdout.write(`#${round} ${pass.label.padEnd(44)} out=${String(out).padStart(6)}  wall=${ms(wall)} ms  chromium=${used} ms${per}  load ${load()}\n`);
      }
    client.close();
  } finally {
    await desktop.stop();
  }
}

runMain(main);

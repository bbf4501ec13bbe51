/**
 * tsx bench/gecko-phases.ts [--app firefox-esr] [--rounds 7] — one whole read of a bench:apps app, phase by
 * phase: every D-Bus call's start and end relative to the read's start, grouped by member (first start, last end,
 * count, the most in flight at once), and the Collection document order's calls alone (GetMatchesFrom in order,
 * as tree-order.ts asks it, against one GetMatches of the same rule), alternated in rounds with the load on each line.
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { awaitPageNames } from '../src/core/platform/linux/late-names';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from '../src/core/platform/linux/collection-rule';
import { fetchTree } from '../src/core/platform/linux/tree-fetch';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { startDesktop } from '../test/linux/desktop';
import { WHOLE_READ } from '../test/linux/mirror-compare';
import { TOOLKIT_APPS, launchAppProcess, pyatspiRead, stopAppProcess } from '../test/linux/toolkit-apps';
import { median, ms, quantile } from './stats';
import { runMain } from './run-main';

const { values } = parseArgs({
  options: {
    app: { type: 'string', default: 'firefox-esr' },
    rounds: { type: 'string', default: '7' },
    base: { type: 'string' },
    'late-names': { type: 'string', default: '0' },
  },
});
const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const load = (): string => loadavg()[0]?.toFixed(2) ?? '?';

interface Span {
  member: string;
  start: number;
  end: number;
}
let spans: Span[] | undefined;
let origin = 0;
for (const method of ['call', 'property'] as const) {
  const original = AtspiClient.prototype[method] as (...args: unknown[]) => Promise<unknown>;
  (AtspiClient.prototype as unknown as Record<string, unknown>)[method] = function (this: AtspiClient, ...args: unknown[]) {
    const member = method === 'call' ? String(args[2]) : `Get ${String(args[2])}`;
    const promise = original.apply(this, args);
    const record = spans;
    if (record === undefined) return promise;
    const span = { member, start: performance.now() - origin, end: -1 };
    record.push(span);
    return promise.finally(() => (span.end = performance.now() - origin));
  };
}

function timeline(all: Span[]): string {
  const byMember = new Map<string, Span[]>();
  for (const span of all) byMember.set(span.member, [...(byMember.get(span.member) ?? []), span]);
  const lines = [...byMember].sort((a, b) => (a[1][0] as Span).start - (b[1][0] as Span).start);
  return lines
    .map(([member, list]) => {
      const first = Math.min(...list.map((each) => each.start));
      const last = Math.max(...list.map((each) => each.end));
      return `    ${member.padEnd(18)} n=${String(list.length).padStart(4)} ${ms(first).padStart(6)} → ${ms(last).padStart(6)} ms`;
    })
    .join('\n');
}

type Wait = (client: AtspiClient, bus: string) => Promise<boolean>;

/**
 * The late-name wait (late-names.ts) of a fresh client, as a CLI call pays it before its first read: this tree's and
 * `--base DIR`'s alternated, each on a client of its own, with its round trips' wall time (medians).
 */
async function compareLateNames(env: Record<string, string | undefined>, bus: string, rounds: number): Promise<void> {
  if (rounds <= 0) return;
  const waits: [string, Wait][] = [['this', awaitPageNames]];
  if (values.base !== undefined) {
    const base = (await import(path.resolve(values.base, 'src/core/platform/linux/late-names.ts'))) as { awaitPageNames: Wait };
    waits.push(['base', base.awaitPageNames]);
  }
  const times = new Map<string, number[]>(waits.map(([label]) => [label, []]));
  const counts = new Map<string, number>();
  for (let round = 0; round < rounds; round += 1)
    for (const [label, wait] of round % 2 === 0 ? waits : [...waits].reverse()) {
      const client = await AtspiClient.connect(env);
      spans = [];
      origin = performance.now();
      await wait(client, bus);
      (times.get(label) as number[]).push(performance.now() - origin);
      counts.set(label, spans.length);
      if (round >= rounds - 2) process.stdout.write(`${label} round ${round}:\n${timeline(spans)}\n`);
      spans = undefined;
      client.close();
    }
  for (const [label, list] of times)
    process.stdout.write(
      `late-name wait (${label}, fresh client): p10=${ms(quantile(list, 0.1))} p25=${ms(quantile(list, 0.25))} median=${ms(median(list))} ms of ${list.length}, calls=${counts.get(label)} load ${load()}\n`,
    );
}

async function main(): Promise<void> {
  const app = TOOLKIT_APPS.find((each) => each.name === values.app);
  if (app === undefined) throw new Error(`no app ${values.app}`);
  const desktop = await startDesktop({ openbox: true });
  const launched = await launchAppProcess(desktop, app);
  try {
    const { pid } = launched;
    const { refs } = await desktop.engine.observe(pid, WHOLE_READ);
    const bus = ([...refs.values()][0] as AtspiRef).bus;
    const entry = (await desktop.platform.apps.list()).find((each) => each.pid === pid);
    if (entry === undefined) throw new Error('app gone');
    const client = await AtspiClient.connect(desktop.session.env);
    const [toolkit = '', version = ''] = (entry.toolkit ?? '').split(' ');
    const bridge = bridgeOf(toolkit, version, entry.name);
    const target = { pid, bus, name: entry.name, gtk4: false, bridge };
    const read = () => fetchTree(client, target, { bounds: 'none', maxNodes: FULL_READ_MAX_NODES - 1, maxDepth: 1000 });
    await read();
    const EVERY = matchRule();
    const inOrder = () => client.call([bus, ROOT_PATH], COLLECTION, 'GetMatchesFrom', `o${RULE}uuib`, [ROOT_PATH, EVERY, SORT_CANONICAL, 2, 1000, true]);
    const matches = () => client.call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [EVERY, SORT_CANONICAL, 1000, true]);
    await compareLateNames(desktop.session.env, bus, Number(values['late-names']));
    const [orderPage] = (await inOrder()) as [[string, string][]];
    const [matchPage] = (await matches()) as [[string, string][]];
    const unique = new Set(orderPage.map((ref) => ref[1])).size;
    const sameOrder = JSON.stringify([...new Set(orderPage.map((ref) => ref[1]))]) === JSON.stringify(matchPage.map((ref) => ref[1]));
    process.stdout.write(
      `GetMatchesFrom(inorder, 1000): ${orderPage.length} refs, ${unique} unique; GetMatches(1000): ${matchPage.length} refs; same order: ${sameOrder}\n`,
    );
    const times = { read: [] as number[], inOrder: [] as number[], matches: [] as number[], engine: [] as number[], pyatspi: [] as number[] };
    let lastSpans: Span[] = [];
    for (let round = 0; round < Number(values.rounds); round += 1) {
      spans = [];
      origin = performance.now();
      await read();
      times.read.push(performance.now() - origin);
      lastSpans = spans;
      spans = undefined;
      for (const [key, work] of [
        ['inOrder', inOrder],
        ['matches', matches],
        ['engine', () => desktop.engine.observe(pid, WHOLE_READ)],
      ] as const) {
        const started = performance.now();
        await work();
        times[key].push(performance.now() - started);
      }
      if (round % 2 === 0) times.pyatspi.push((await pyatspiRead(desktop.session.env, pid, 3)).median_ms);
      process.stdout.write(`round ${round}: load ${load()} read=${ms(times.read.at(-1) as number)} engine=${ms(times.engine.at(-1) as number)}\n`);
    }
    process.stdout.write(`last read's calls by member (start of first → end of last):\n${timeline(lastSpans)}\n`);
    const py = median(times.pyatspi);
    for (const [key, list] of Object.entries(times))
      process.stdout.write(
        `  ${key.padEnd(8)} median=${ms(median(list))} ms${key === 'pyatspi' ? '' : ` (pyatspi/this=${(py / median(list)).toFixed(1)}x)`}\n`,
      );
    process.stdout.write(`load ${load()}\n`);
    client.close();
  } finally {
    await stopAppProcess(launched);
    await desktop.stop();
  }
}

runMain(main);

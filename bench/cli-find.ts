/**
 * tsx bench/cli-find.ts [--browser chromium|firefox] [--size 20000] [--runs 3] — where a fresh
 * CLI's `find` spends its time on bench:apps' generated page (issue 27: ≤ 200 ms at 20,000
 * nodes). Per query: the built CLI's wall time (`node bin/deskpilot.js find …`, a new process
 * each run) against `--version` (node start and imports alone); then the same search in this
 * process, phase by phase: connecting, finding the app, and collectionFind with every D-Bus call
 * counted and timed by kind (GetMatches and its refs, Name reads, the placing calls). Back to
 * back in one run, with the load, since the machine is shared.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AtspiClient } from '../src/core/platform/linux/client';
import { collectionFind } from '../src/core/platform/linux/collection-find';
import { bridgeOf } from '../src/core/platform/linux/bridges';
import { roleFilter } from '../src/core/ui/query';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { chromiumArgs, TOOLKIT_APPS, treeText } from '../test/linux/toolkit-apps';
import { waitFor } from '../test/linux/wait-for';
import { generatePage, pageShape } from './pages/generate-page';
import { median, ms } from './stats';
import { runMain } from './run-main';

const { values } = parseArgs({
  options: { browser: { type: 'string', default: 'chromium' }, size: { type: 'string', default: '20000' }, runs: { type: 'string', default: '3' } },
});
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const load = (): string => (loadavg()[0] as number).toFixed(2);

async function openPage(desktop: Desktop, browser: string, nodes: number): Promise<number> {
  const home = desktop.session.env['HOME'] as string;
  const file = path.join(home, `page-${nodes}.html`);
  writeFileSync(file, generatePage(nodes));
  let binary = '/usr/bin/chromium';
  let args = chromiumArgs(path.join(home, 'chromium-profile'), file);
  if (browser === 'firefox') {
    TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
    binary = '/usr/bin/firefox-esr';
    args = ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${file}`];
  }
  desktop.session.launch(binary, args, { env: { MOZ_ENABLE_WAYLAND: '0' } });
  const pid = await waitFor(
    async () => (await desktop.platform.apps.list().catch(() => [])).find((app) => app.windows.length > 0)?.pid,
    60_000,
    `${browser} to register`,
  );
  let previous = -1;
  await waitFor(
    async () => {
      const root = (await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 }).catch(() => undefined))?.root;
      const count = root === undefined ? -1 : countNodes(root);
      const whole = root !== undefined && count === previous && treeText(root).includes('End of report');
      previous = count;
      if (!whole) await new Promise((resolve) => setTimeout(resolve, 1000));
      return whole ? true : undefined;
    },
    240_000,
    'the page to load whole',
  );
  process.stdout.write(`${browser} ${nodes}: ${previous} nodes read  load ${load()}\n`);
  return pid;
}

function cli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ wall: number; out: string; code: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/deskpilot.js'), ...args], { env, cwd: ROOT, timeout: 60_000 }, (error, stdout) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ wall: performance.now() - started, out: stdout.trim().split('\n')[0] ?? '', code });
    });
  });
}

interface Tally {
  count: number;
  ms: number;
  refs: number;
}

/** A client whose call and property count and time themselves by kind. */
function counted(client: AtspiClient, tally: Map<string, Tally>): AtspiClient {
  const add = async <T>(kind: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const value = await work();
    const entry = tally.get(kind) ?? { count: 0, ms: 0, refs: 0 };
    entry.count += 1;
    entry.ms += performance.now() - started;
    if (kind === 'GetMatches') entry.refs += ((value as unknown[])[0] as unknown[]).length;
    tally.set(kind, entry);
    return value;
  };
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'call')
        return (object: unknown, iface: string, method: string, ...rest: unknown[]) =>
          add(method, () => (target.call as (...args: unknown[]) => Promise<unknown>)(object, iface, method, ...rest));
      if (key === 'property')
        return (object: unknown, iface: string, name: string, ...rest: unknown[]) =>
          add(`Get ${name}`, () => (target.property as (...args: unknown[]) => Promise<unknown>)(object, iface, name, ...rest));
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function inProcess(env: NodeJS.ProcessEnv, pid: number, query: { name?: string; role?: string }, toolkit: string): Promise<string> {
  const started = performance.now();
  const client = await AtspiClient.connect(env);
  const connected = performance.now();
  // As the CLI finds it: the registry's children, each bus's pid.
  const buses = (await client.registryChildren()).map((ref) => ref[0]);
  const pids = await Promise.all(buses.map((bus) => client.pidOf(bus).catch(() => -1)));
  const bus = buses[pids.indexOf(pid)];
  if (bus === undefined) throw new Error(`no app ${pid}`);
  const entry = { bus };
  await client.connectDirect(bus);
  const found = performance.now();
  const tally = new Map<string, Tally>();
  const app = { pid, bus: entry.bus, gtk4: false, bridge: bridgeOf(toolkit, '') } as Parameters<typeof collectionFind>[1];
  const roles = query.role === undefined ? undefined : roleFilter(query.role).roles;
  const matches = await collectionFind(counted(client, tally), app, {
    ...(roles === undefined ? {} : { roles }),
    ...(query.name === undefined ? {} : { name: query.name }),
    limit: 1,
  });
  const searched = performance.now();
  client.close();
  const calls = [...tally.entries()].map(([kind, t]) => `${kind}×${t.count}${kind === 'GetMatches' ? ` (${t.refs} refs)` : ''} Σ${ms(t.ms)}`).join(', ');
  const first = matches?.[0];
  return (
    `connect ${ms(connected - started)} ms, app ${ms(found - connected)} ms, search ${ms(searched - found)} ms -> ${first === undefined ? 'none' : `${first.node.role} "${first.node.name}"`}\n` +
    `      calls: ${calls}`
  );
}

async function main(): Promise<void> {
  const browser = values.browser as string;
  const size = Number(values.size);
  const runs = Number(values.runs);
  const desktop = await startDesktop({ openbox: true });
  try {
    const pid = await openPage(desktop, browser, size);
    const env = desktop.session.env;
    const { sections, rowsPerSection } = pageShape(size);
    const version: number[] = [];
    for (let run = 0; run < runs; run += 1) version.push((await cli(['--version'], env)).wall);
    process.stdout.write(`--version: ${ms(median(version))} ms (median of ${runs})  load ${load()}\n`);
    const listed: number[] = [];
    for (let run = 0; run < runs; run += 1) listed.push((await cli(['apps'], env)).wall);
    process.stdout.write(`apps: ${ms(median(listed))} ms (median of ${runs})  load ${load()}\n`);
    const queries: { label: string; args: string[]; query: { name?: string; role?: string } }[] = [
      { label: `name "Part ${sections}" (a heading)`, args: ['--name', `Part ${sections}`], query: { name: `Part ${sections}` } },
      {
        label: `name "Act ${sections * rowsPerSection}" (last button)`,
        args: ['--name', `Act ${sections * rowsPerSection}`],
        query: { name: `Act ${sections * rowsPerSection}` },
      },
      { label: 'role heading', args: ['--role', 'heading'], query: { role: 'heading' } },
      {
        label: `role button, name "Act ${sections * rowsPerSection}"`,
        args: ['--role', 'button', '--name', `Act ${sections * rowsPerSection}`],
        query: { role: 'button', name: `Act ${sections * rowsPerSection}` },
      },
    ];
    const toolkit = browser === 'firefox' ? 'Gecko' : 'Chromium';
    for (const { label, args, query } of queries) {
      const walls: number[] = [];
      let out = '';
      for (let run = 0; run < runs; run += 1) {
        const result = await cli(['find', '--pid', String(pid), '--limit', '1', ...args], env);
        walls.push(result.wall);
        out = `${result.code} ${result.out}`;
      }
      process.stdout.write(`find ${label}: cli ${ms(median(walls))} ms [${walls.map(ms).join(', ')}] -> ${out}  load ${load()}\n`);
      process.stdout.write(`  in-process: ${await inProcess(env, pid, query, toolkit)}\n`);
    }
  } finally {
    await desktop.stop();
  }
}

runMain(main);

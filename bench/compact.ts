/**
 * npm run bench:compact — the compact tree at ui_tree's default budget (what `deskpilot tree`
 * prints) of generated pages in Chromium, read on demand within the budget, beside
 * python3-pyatspi's full dump of the same page in the same run. Per page: nodes (pyatspi's
 * count), the compact tree's median ms, the nodes and readChildren calls it took, its D-Bus calls per node read, its tokens, whether every
 * heading and landmark of the page is named in it, the same text through a whole read (as
 * before), and pyatspi's ms. Ends with
 * `compact: ms_small=… ms_large=… ratio_large_small=… vs_pyatspi_large=… outline_ok=k/n`.
 *   npm run bench:compact [-- 2000 20000]     page sizes in nodes (default 2,000 and 20,000)
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { countAtspiCalls, totalCalls } from './atspi-calls';
import { readOutline } from '../src/core/platform/outline-read';
import { readsFor, observeForText } from '../src/core/tools/tree-read';
import { DEFAULT_SERIALIZE, serializeTree } from '../src/core/ui/serialize';
import { estimateTokens } from '../src/core/ui/token-estimate';
import { isProcessAlive } from '../src/core/platform/process';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { waitFor } from '../test/linux/session';
import { generatePage, pageOutline } from './pages/generate-page';
import { median, ms, timed } from './stats';
import { chromiumArgs } from '../test/linux/toolkit-apps';

const RUNS = 5;

/** D-Bus calls the read makes, counted on the client, for calls-per-node figures. */
const calls = countAtspiCalls();
/** pyatspi's dump of a 20,000-node page takes tens of seconds: one run there, three on small pages. */
const pyatspiRuns = (size: number): number => (size >= 5_000 ? 1 : 3);
const PYATSPI_DUMP = fileURLToPath(new URL('./reference/pyatspi-dump.py', import.meta.url));
const MAX_READS = readsFor(DEFAULT_SERIALIZE.maxTokens, DEFAULT_SERIALIZE.maxNodes);

interface Row {
  size: number;
  nodes: number;
  compactMs: number;
  reads: number;
  calls: number;
  /** D-Bus calls of one budgeted read, per node read. */
  dbusPerNode: number;
  tokens: number;
  named: number;
  outline: number;
  pyatspiMs: number;
  /** The compact tree through a whole read, as before budgeted reads. */
  wholeMs: number;
}

const HEADER = 'page    nodes(pyatspi)  compact_ms  reads  calls  dbus/node  tokens  outline  whole_read_ms  pyatspi_ms  ratio';

function line(row: Row): string {
  return [
    String(row.size).padEnd(8),
    String(row.nodes).padEnd(16),
    ms(row.compactMs).padEnd(12),
    String(row.reads).padEnd(7),
    String(row.calls).padEnd(7),
    row.dbusPerNode.toFixed(2).padEnd(11),
    String(row.tokens).padEnd(8),
    `${row.named}/${row.outline}`.padEnd(9),
    ms(row.wholeMs).padEnd(15),
    ms(row.pyatspiMs).padEnd(12),
    `${(row.pyatspiMs / row.compactMs).toFixed(1)}×`,
  ].join('');
}

async function compactText(desktop: Desktop, pid: number): Promise<string> {
  const { subject } = await observeForText(desktop.engine, pid, { maxTokens: DEFAULT_SERIALIZE.maxTokens, maxNodes: DEFAULT_SERIALIZE.maxNodes });
  return serializeTree(subject);
}

/** How many of the page's headings and landmarks the text names, of how many. */
function outlineNamed(text: string, size: number): { named: number; total: number } {
  const { headings, landmarks } = pageOutline(size);
  const names = [...headings.map((heading) => `heading "${heading}"`), ...landmarks.map((landmark) => `"${landmark}"`)];
  return { named: names.filter((name) => text.includes(name)).length, total: names.length };
}

async function pyatspi(env: NodeJS.ProcessEnv, pid: number, runs: number): Promise<{ nodes: number; median_ms: number }> {
  try {
    const { stdout } = await promisify(execFile)('/usr/bin/python3', [PYATSPI_DUMP, '--pid', String(pid), '--runs', String(runs)], {
      env,
      timeout: 900_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) as string) as { nodes: number; median_ms: number };
  } catch (error) {
    console.error(`pyatspi failed: ${String(error)}`);
    return { nodes: Number.NaN, median_ms: Number.NaN };
  }
}

async function measure(desktop: Desktop, size: number): Promise<Row> {
  const home = desktop.session.env['HOME'] as string;
  mkdirSync(home, { recursive: true });
  const file = path.join(home, `page-${size}.html`);
  writeFileSync(file, generatePage(size));
  const child = desktop.session.launch('/usr/bin/chromium', chromiumArgs(path.join(home, 'chromium-compact'), file));
  try {
    const pid = await waitFor(
      async () => (await desktop.platform.apps.list()).find((app) => /chrom/i.test(app.name) && app.windows.length > 0)?.pid,
      60_000,
      'Chromium to register',
    );
    // Loaded once the page's last landmark is in the outline and two reads agree.
    let last = '';
    await waitFor(
      async () => {
        const text = await compactText(desktop, pid);
        const done = text === last && text.includes('"Site footer"');
        last = text;
        if (!done) await new Promise((resolve) => setTimeout(resolve, 500));
        return done ? true : undefined;
      },
      90_000,
      'the page to load',
    );
    const times = await timed(RUNS, () => compactText(desktop, pid));
    const text = await compactText(desktop, pid);
    calls.clear();
    const stats = await readOutline(desktop.platform.accessibility, pid, { maxReads: MAX_READS });
    const dbusPerNode = totalCalls(calls) / Math.max(1, stats?.reads ?? 0);
    // The whole read the compact tree used to take, once, for comparison.
    const wholeStarted = performance.now();
    serializeTree((await desktop.engine.observe(pid, { fresh: true })).root);
    const wholeMs = performance.now() - wholeStarted;
    const reference = await pyatspi(desktop.session.env, pid, pyatspiRuns(size));
    const { named, total } = outlineNamed(text, size);
    return {
      size,
      nodes: reference.nodes,
      compactMs: median(times),
      reads: stats?.reads ?? 0,
      calls: stats?.calls ?? 0,
      dbusPerNode,
      tokens: estimateTokens(text),
      named,
      outline: total,
      pyatspiMs: reference.median_ms,
      wholeMs,
    };
  } finally {
    const pid = child.pid;
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    if (pid !== undefined && isProcessAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}

async function main(): Promise<void> {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((size) => Number.isFinite(size) && size > 0);
  const pages = sizes.length > 0 ? sizes : [2_000, 20_000];
  const desktop = await startDesktop();
  const rows: Row[] = [];
  try {
    console.log(HEADER);
    for (const size of pages) {
      const row = await measure(desktop, size);
      rows.push(row);
      console.log(line(row));
    }
  } finally {
    await desktop.stop();
  }
  const small = rows[0] as Row;
  const large = rows[rows.length - 1] as Row;
  const named = rows.reduce((sum, row) => sum + row.named, 0);
  const outline = rows.reduce((sum, row) => sum + row.outline, 0);
  console.log(
    `compact: ms_small=${ms(small.compactMs)} ms_large=${ms(large.compactMs)} ratio_large_small=${(large.compactMs / small.compactMs).toFixed(2)} vs_pyatspi_large=${(large.pyatspiMs / large.compactMs).toFixed(1)} outline_ok=${named}/${outline} load=${(await import('node:os')).loadavg()[0]?.toFixed(2)}`,
  );
}

await main();

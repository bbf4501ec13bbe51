/**
 * npm run bench:docs-hostile — hostile documentation folders at full scale, each indexed by a
 * fresh process (the way the CLI or the MCP server meets it), twice: the first run and the run
 * after it (a file that crashed the first must not crash the second). Per case: what became of
 * the file, the wall time, the longest the event loop was blocked (while it is blocked the MCP
 * server answers nobody), and the process's peak RSS (the kernel's VmHWM, worker included), beside a one-page Markdown folder as the
 * baseline in the same run. Targets: each case within 5 s and under 500 MB, the loop never
 * blocked for long. DOCS_HOSTILE_MODULE=<folder with core/doc-search> runs an older copy of the code
 * for "before" figures; DOCS_HOSTILE_CASES=a,b picks cases.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync, gzipSync } from 'node:zlib';
import type * as DocsIndexModuleType from '../src/core/doc-search/docs-index';
import { pdfWithDeflatedPage, pdfWithPages } from '../src/core/doc-search/parse/pdf-fixture';
import type * as SourcesModuleType from '../src/core/doc-search/sources';

type DocsIndexModule = typeof DocsIndexModuleType;
type SourcesModule = typeof SourcesModuleType;

const MB = 1024 * 1024;
/** A run that takes longer is stopped and reported as such. */
const RUN_LIMIT_MS = Number(process.env['DOCS_HOSTILE_LIMIT_MS'] ?? 90_000);

/** n copies of one gzip member: a valid .gz (members concatenate) that expands to n times the member's input. */
function gzipBomb(member: Buffer, copies: number): Buffer {
  const packed = gzipSync(member, { level: 9 });
  return Buffer.concat(Array.from({ length: copies }, () => packed));
}

const CASES: Record<string, { file: string; make: () => Buffer; expands: string }> = {
  baseline: { file: 'notes.md', make: () => Buffer.from('# Printer\n\n## Paper jam\nOpen the back cover.\n'), expands: '-' },
  'gzip-1g': { file: 'bomb.md.gz', make: () => gzipBomb(Buffer.alloc(32 * MB, 0x61), 32), expands: '1 GB' },
  'gzip-3g': { file: 'bomb.md.gz', make: () => gzipBomb(Buffer.alloc(32 * MB, 0x61), 96), expands: '3 GB' },
  'text-400m': {
    file: 'bomb.txt.gz',
    make: () => gzipBomb(Buffer.from('The quick brown fox jumps over the lazy dog near the river bank. '.repeat((4 * MB) / 64)), 100),
    expands: '400 MB',
  },
  'pdf-75k-pages': { file: 'bomb.pdf', make: () => pdfWithPages(75_000, true), expands: '75,000 pages' },
  'pdf-5k-pages': { file: 'long.pdf', make: () => pdfWithPages(5000), expands: '5,000 pages' },
  'pdf-300m-stream': { file: 'inflate.pdf', make: () => pdfWithDeflatedPage((data) => deflateSync(data, { level: 9 }), 300 * MB), expands: '300 MB stream' },
  'html-nested': { file: 'nested.html', make: () => Buffer.from(`<html><body>${'<div>'.repeat(480_000)}deep`), expands: '480,000 levels' },
};

interface Outcome {
  ms: number;
  maxGapMs: number;
  rssMb: number;
  result: string;
}

/** The child: indexes one folder, with a 10 ms heartbeat measuring how long the event loop was blocked. */
async function child(folder: string, database: string): Promise<void> {
  const base = process.env['DOCS_HOSTILE_MODULE'] ?? fileURLToPath(new URL('../src', import.meta.url));
  // An older copy keeps the code under core/docs, its name before core/doc-search.
  const code = ['core/doc-search', 'core/docs'].map((name) => path.join(base, name)).find((dir) => existsSync(dir)) ?? path.join(base, 'core/doc-search');
  const { DocsIndex } = (await import(pathToFileURL(path.join(code, 'docs-index.ts')).href)) as DocsIndexModule;
  const { folderSource } = (await import(pathToFileURL(path.join(code, 'sources.ts')).href)) as SourcesModule;
  let last = performance.now();
  let maxGap = 0;
  // Sampled, not getrusage's maxRSS: on Linux a child inherits the peak of the parent it was forked from.
  let peakRss = process.memoryUsage.rss();
  const beat = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  const index = new DocsIndex(database);
  const started = performance.now();
  const report = await index.update([folderSource(folder)]);
  const ms = performance.now() - started;
  clearInterval(beat);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  index.close();
  const result =
    report.skipped.length > 0
      ? `skipped: ${report.skipped.map((skip) => skip.reason).join('; ')}`
      : report.indexed === 0
        ? 'unchanged, not read again'
        : `indexed: ${report.sections} sections`;
  const outcome: Outcome = { ms, maxGapMs: maxGap, rssMb: peakRss / MB, result };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  process.exit(0);
}

function run(folder: string, database: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', folder, database], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    });
    let out = '';
    let err = '';
    // The kernel's high-water mark for the child (worker threads included), read from outside so a
    // child whose event loop is blocked, or that is killed, still has a figure. It starts afresh at exec.
    let hwmKb = 0;
    const poll = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? 0);
        hwmKb = Math.max(hwmKb, kb);
      } catch {
        // Gone between two polls.
      }
    }, 50);
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-2000)));
    const timer = setTimeout(() => proc.kill('SIGKILL'), RUN_LIMIT_MS);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      const ms = performance.now() - started;
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) {
        const outcome = JSON.parse(line) as Outcome;
        return resolve({ ...outcome, rssMb: Math.max(outcome.rssMb, hwmKb / 1024) });
      }
      const why = signal === 'SIGKILL' ? `did not finish in ${RUN_LIMIT_MS / 1000} s (killed)` : `crashed (${signal ?? `exit ${code}`}): ${lastLine(err)}`;
      resolve({ ms, maxGapMs: Number.NaN, rssMb: hwmKb > 0 ? hwmKb / 1024 : Number.NaN, result: why });
    });
  });
}

function lastLine(text: string): string {
  const lines = text.split('\n').filter((line) => /error|fatal|heap|memory|abort/i.test(line));
  return (lines.at(-1) ?? text.trim().split('\n').at(-1) ?? '').trim().slice(0, 160);
}

const fmt = (value: number, digits = 0): string => (Number.isNaN(value) ? '–' : value.toFixed(digits));

async function main(): Promise<void> {
  const wanted = process.env['DOCS_HOSTILE_CASES']?.split(',') ?? Object.keys(CASES);
  const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-bench-hostile-'));
  const worst = { ms: 0, rssMb: 0, gapMs: 0 };
  try {
    console.log(`case             on disk   expands to      run    time_ms  max_loop_block_ms  peak_rss_mb  result`);
    for (const name of wanted) {
      const spec = CASES[name];
      if (spec === undefined) throw new Error(`no case ${name}; cases: ${Object.keys(CASES).join(', ')}`);
      const folder = path.join(dir, name);
      mkdirSync(folder);
      const file = path.join(folder, spec.file);
      writeFileSync(file, spec.make());
      const size = statSync(file).size;
      const database = path.join(dir, `${name}.sqlite`);
      for (const pass of ['first', 'again']) {
        const outcome = await run(folder, database);
        console.log(
          `${name.padEnd(16)} ${`${(size / MB).toFixed(1)} MB`.padStart(8)}  ${spec.expands.padEnd(14)}  ${pass.padEnd(5)}  ${fmt(outcome.ms).padStart(7)}  ${fmt(outcome.maxGapMs).padStart(17)}  ${fmt(outcome.rssMb).padStart(11)}  ${outcome.result.slice(0, 110)}`,
        );
        if (name !== 'baseline') {
          worst.ms = Math.max(worst.ms, Number.isNaN(outcome.maxGapMs) ? Infinity : outcome.ms);
          worst.rssMb = Math.max(worst.rssMb, Number.isNaN(outcome.rssMb) ? Infinity : outcome.rssMb);
          worst.gapMs = Math.max(worst.gapMs, Number.isNaN(outcome.maxGapMs) ? Infinity : outcome.maxGapMs);
        }
      }
      rmSync(folder, { recursive: true, force: true });
    }
    console.log(`docs_hostile: worst_ms=${fmt(worst.ms)} worst_rss_mb=${fmt(worst.rssMb)} worst_loop_block_ms=${fmt(worst.gapMs)} (targets: 5000 ms, 500 MB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] as string, process.argv[4] as string);
else await main();

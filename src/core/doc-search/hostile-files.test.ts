import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocsIndex, INTERRUPTED } from './docs-index';
import { pdfWithPages } from './parse/pdf-fixture';
import { folderSource } from './sources';
import { DocsStore } from './store';

/**
 * Hostile documentation folders at small scale: each bound is lowered so the fixture stays
 * small. bench/docs-hostile.ts runs the same cases at full scale (3 GB gzip, 75,000 pages).
 */
let dir: string;
let notes: string;
let file: string;

const write = (name: string, data: string | Buffer): string => {
  const full = path.join(notes, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, data);
  return full;
};

/** A worker script for the reader: answers every file with one section, except that `hang*` files never finish and `oom*` ones eat memory. */
function scriptedWorker(): URL {
  const script = path.join(dir, 'worker.mjs');
  writeFileSync(
    script,
    `import { parentPort } from 'node:worker_threads';
     const hoard = [];
     parentPort.on('message', ({ id, file }) => {
       const name = file.split('/').pop();
       if (name.startsWith('hang')) for (;;);
       if (name.startsWith('oom')) for (;;) hoard.push(new Array(1e6).fill(name));
       parentPort.postMessage({ id, doc: { title: name, sections: [{ anchor: '', section: '', text: 'read by the worker ' + name }] } });
     });
     parentPort.postMessage({ ready: true });`,
  );
  return pathToFileURL(script);
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-hostile-'));
  notes = path.join(dir, 'notes');
  file = path.join(dir, 'index.sqlite');
  write('ok.md', '# Printer\n\n## Paper jam\nOpen the back cover.\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const reasons = (report: { skipped: { path: string; reason: string }[] }): Record<string, string> =>
  Object.fromEntries(report.skipped.map(({ path: skipped, reason }) => [path.basename(skipped), reason]));

describe('hostile documentation files', () => {
  it('skips a gzip bomb once its output passes the cap, and the rest is indexed', async () => {
    // 8 MB of one byte gzips to about 8 KB; with a 1 MB cap it stands for 3 MB → 3 GB.
    write('bomb.md.gz', gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x61)));
    write('fine.md.gz', gzipSync('# Wifi\nTurn it off and on.\n'));
    const index = new DocsIndex(file, undefined, {}, { parse: { textBytes: 1024 * 1024 } });
    const report = await index.update([folderSource(notes)]);
    expect(reasons(report)).toEqual({ 'bomb.md.gz': expect.stringMatching(/^expands to more than 1 MB/) as string });
    expect(report.files).toBe(2);
    expect((await index.search('wifi')).hits).toHaveLength(1);
    index.close();
  });

  it('reads a PDF only up to its page cap', async () => {
    write('long.pdf', pdfWithPages(60));
    const index = new DocsIndex(file, undefined, {}, { parse: { pdfPages: 10 } });
    const report = await index.update([folderSource(notes)]);
    expect(report.skipped).toEqual([]);
    expect((await index.search('topic10')).hits[0]?.source).toBe(`${path.join(notes, 'long.pdf')}#page=10`);
    expect((await index.search('topic11')).hits).toEqual([]);
    index.close();
  });

  it('caps the characters kept from one file', async () => {
    write('huge.txt', `${'word '.repeat(50_000)}needle-at-the-end`);
    const index = new DocsIndex(file, undefined, {}, { parse: { chars: 10_000 } });
    await index.update([folderSource(notes)]);
    expect(index.textBytes()).toBeLessThan(12_000);
    expect((await index.search('needle')).hits).toEqual([]);
    index.close();
  });

  it('skips markup nested deeper than the depth cap, and keeps ordinary pages', async () => {
    write('deep.html', `<html><body>${'<div>'.repeat(5000)}deep text`);
    write('deep.xml', `<article>${'<section><title>t</title>'.repeat(400)}</article>`);
    write('page.html', `<html><body><h1>Router</h1>${'<div>'.repeat(40)}<p>Hold reset.<p>Wait.${'</div>'.repeat(40)}</body></html>`);
    const index = new DocsIndex(file);
    const report = await index.update([folderSource(notes)]);
    expect(reasons(report)).toEqual({ 'deep.html': 'elements nested more than 256 deep', 'deep.xml': 'elements nested more than 256 deep' });
    expect((await index.search('hold reset')).hits[0]?.title).toBe('Router');
    index.close();
  });

  it('ends a parse at its deadline, records the file as skipped, and reads the next file in a new worker', async () => {
    write('hang.md', '# never read');
    const index = new DocsIndex(file, undefined, {}, { script: scriptedWorker(), worker: { deadlineMs: 500 } });
    const report = await index.update([folderSource(notes)]);
    expect(reasons(report)).toEqual({ 'hang.md': 'took longer than 0.5 s to read' });
    // ok.md comes after hang.md: read by the worker started after the stuck one was ended.
    expect((await index.search('worker')).hits.map((hit) => path.basename(hit.source))).toEqual(['ok.md']);
    // Skipped for good: the next run does not try it again while it is unchanged.
    expect(await index.update([folderSource(notes)])).toMatchObject({ indexed: 0, unchanged: 2 });
    index.close();
  });

  it('ends a parse at the heap limit and records the file as skipped', async () => {
    write('oom.md', '# never read');
    const index = new DocsIndex(file, undefined, {}, { script: scriptedWorker(), worker: { deadlineMs: 60_000, heapMb: 16 } });
    const report = await index.update([folderSource(notes)]);
    expect(reasons(report)).toEqual({ 'oom.md': 'needed more than 16 MB of memory to read' });
    expect((await index.search('worker')).hits.map((hit) => path.basename(hit.source))).toEqual(['ok.md']);
    index.close();
  });

  it('records a file as skipped before parsing it, so a crash in the parse is not repeated', async () => {
    const hang = write('hang.md', '# takes the program down');
    const first = new DocsIndex(file, undefined, {}, { script: scriptedWorker(), worker: { deadlineMs: 60_000 } });
    const stuck = first.update([folderSource(notes)]);
    // While the parse runs, the index already says the file did not finish.
    const other = new DocsStore(file);
    let row;
    for (let attempt = 0; attempt < 500 && row?.skipped === undefined; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      row = other.fileRow(hang);
    }
    expect(row?.skipped).toBe(INTERRUPTED);
    other.close();
    // The program "restarts" (the first never finishes): the file is skipped, not parsed again.
    const second = new DocsIndex(file, undefined, {}, { script: scriptedWorker(), worker: { deadlineMs: 60_000 } });
    const report = await second.update([folderSource(notes)]);
    expect(reasons(report)).toEqual({ 'hang.md': INTERRUPTED });
    second.close();
    first.close();
    await stuck.catch(() => undefined);
  });

  it('waits for another indexer holding the index instead of failing, and records nothing against the files', async () => {
    const index = new DocsIndex(file);
    // Another process takes the write lock and keeps it a moment, as a second `docs index` does per file.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const { DatabaseSync } = require('node:sqlite');
         const db = new DatabaseSync(${JSON.stringify(file)});
         db.exec('BEGIN IMMEDIATE');
         console.log('locked');
         setTimeout(() => { db.exec('COMMIT'); db.close(); }, 700);`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const report = await index.update([folderSource(notes)]);
    expect(report).toMatchObject({ files: 1, skipped: [] });
    expect((await index.search('paper jam')).hits).toHaveLength(1);
    index.close();
    await exited;
  });

  it('reports a folder cut at the file limit', async () => {
    write('b.md', '# B');
    write('c.md', '# C');
    const index = new DocsIndex(file);
    const report = await index.update([folderSource(notes, { limit: 2 })]);
    expect(report.cut).toEqual([{ source: `folder:${notes}`, taken: 2 }]);
    index.close();
  });
});

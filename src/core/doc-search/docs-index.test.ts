import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocsIndex } from './docs-index';
import { startFakeEmbeddings, type FakeEmbeddingsServer } from './fake-embeddings';
import { pdfWithLines } from './parse/pdf-fixture';
import { folderSource } from './sources';

let dir: string;
let notes: string;
let file: string;

const write = (name: string, text: string | Buffer): void => {
  const full = path.join(notes, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-docs-'));
  notes = path.join(dir, 'notes');
  file = path.join(dir, 'index.sqlite');
  write('printer.md', '# Printer\n\n## Two-sided printing\nPick Two-sided in the print dialog.\n\n## Paper jam\nOpen the back cover.\n');
  write('network.txt', 'When the wireless network keeps disconnecting, move closer to the router.');
  write('router.pdf', pdfWithLines(['Resetting the router', 'Hold the reset button for ten seconds.']));
  write(
    'help/vpn.page',
    '<page xmlns="http://projectmallard.org/1.0/" id="vpn"><title>Connect to a VPN</title><p>Open Settings, Network, then VPN.</p></page>',
  );
  write('broken.pdf', 'not a pdf');
  write('photo.png', 'ignored');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DocsIndex', () => {
  it('indexes every source type, says what it skipped, and finds sections by meaning of their words', async () => {
    const index = new DocsIndex(file);
    const report = await index.update([folderSource(notes)]);
    expect(report).toMatchObject({
      files: 4,
      indexed: 5,
      unchanged: 0,
      skipped: [{ path: path.join(notes, 'broken.pdf'), reason: 'named .pdf but not a PDF' }],
    });
    const result = await index.search('print on both sides of the page');
    expect(result.mode).toBe('full-text');
    expect(result.note).toMatch(/no embedding model/);
    expect(result.hits[0]).toMatchObject({ source: `${path.join(notes, 'printer.md')}#two-sided-printing`, title: 'Printer', section: 'Two-sided printing' });
    expect((await index.search('wifi keeps dropping')).hits[0]?.source).toBe(path.join(notes, 'network.txt'));
    expect((await index.search('reset the router')).hits[0]?.source).toBe(`${path.join(notes, 'router.pdf')}#page=1`);
    expect((await index.search('vpn')).hits[0]).toMatchObject({ title: 'Connect to a VPN', source: `${path.join(notes, 'help/vpn.page')}#vpn` });
    index.close();
  });

  it('re-reads only what changed, and forgets deleted files', async () => {
    const index = new DocsIndex(file);
    await index.update([folderSource(notes)]);
    expect(await index.update([folderSource(notes)])).toMatchObject({ indexed: 0, unchanged: 5, removed: 0 });
    // Touched but identical: the hash says so, nothing is parsed.
    utimesSync(path.join(notes, 'network.txt'), new Date(), new Date(Date.now() + 5000));
    expect(await index.update([folderSource(notes)])).toMatchObject({ indexed: 0 });
    write('network.txt', 'Airplane mode turns the radio off.');
    rmSync(path.join(notes, 'printer.md'));
    expect(await index.update([folderSource(notes)])).toMatchObject({ indexed: 1, removed: 1 });
    expect((await index.search('airplane')).hits).toHaveLength(1);
    expect((await index.search('paper jam')).hits).toEqual([]);
    index.close();
  });

  it('moves a corrupt index aside, rebuilds it and says so', async () => {
    writeFileSync(file, 'this is not a database, just bytes '.repeat(200));
    const index = new DocsIndex(file);
    const report = await index.update([folderSource(notes)]);
    expect(report.notice).toMatch(/could not be read.*moved to .*corrupt-\d+.*rebuilt/);
    expect(readdirSync(dir).some((name) => name.startsWith('index.sqlite.corrupt-'))).toBe(true);
    expect((await index.search('router')).hits.length).toBeGreaterThan(0);
    index.close();
  });

  it('searches only the sources asked for', async () => {
    const index = new DocsIndex(file);
    const help = folderSource(path.join(notes, 'help'));
    await index.update([folderSource(notes), help]);
    const result = await index.search('network settings', { files: new Set(help.files) });
    expect(result.hits.map((hit) => hit.title)).toEqual(['Connect to a VPN']);
    index.close();
  });
});

describe('DocsIndex with embeddings', () => {
  let fake: FakeEmbeddingsServer;
  beforeEach(async () => {
    fake = await startFakeEmbeddings();
  });
  afterEach(() => fake.close());

  const instant = { sleep: () => Promise.resolve(), baseDelayMs: 1 };

  it('embeds in batches, retries a 429 and a 503, then fuses both rankings', async () => {
    const index = new DocsIndex(file, () => ({ baseUrl: fake.baseUrl, model: 'embed-a' }), instant);
    await index.update([folderSource(notes)]);
    fake.failNext.push(429, 503);
    await index.embedPending();
    expect(fake.requests.map((request) => request.status)).toEqual([429, 503, 200]);
    expect(index.status().embedding).toEqual({ model: 'embed-a', embedded: 5, total: 5 });
    const result = await index.search('two-sided printing');
    expect(result.mode).toBe('hybrid');
    expect(result.hits[0]?.section).toBe('Two-sided printing');
    index.close();
  });

  it('after a model change, stays full-text and says so until the new model has embedded everything', async () => {
    let model = 'embed-a';
    const index = new DocsIndex(file, () => ({ baseUrl: fake.baseUrl, model }), instant);
    await index.update([folderSource(notes)]);
    await index.embedPending();
    model = 'embed-b';
    const before = await index.search('router');
    expect(before).toMatchObject({ mode: 'full-text', note: expect.stringMatching(/while embed-b embeds the index \(0\/5/) as string });
    expect(before.hits.length).toBeGreaterThan(0);
    await index.embedPending();
    expect((await index.search('router')).mode).toBe('hybrid');
    expect(fake.requests.filter((request) => request.model === 'embed-b').length).toBeGreaterThan(1);
    index.close();
  });

  it('a provider without the embedding model leaves search full-text, never failing', async () => {
    fake.unknownModels.add('missing');
    const index = new DocsIndex(file, () => ({ baseUrl: fake.baseUrl, model: 'missing' }), instant);
    await index.update([folderSource(notes)]);
    await index.embedPending();
    const result = await index.search('router');
    expect(result).toMatchObject({ mode: 'full-text', note: expect.stringMatching(/no embeddings for model missing/) as string });
    expect(result.hits.length).toBeGreaterThan(0);
    index.close();
  });
});

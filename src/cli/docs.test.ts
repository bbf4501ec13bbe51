import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docsCommand } from './docs';
import type { CliIo } from './context';

let dir: string;
let notes: string;
let out: string[];
let err: string[];
let io: CliIo;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-cli-docs-'));
  notes = path.join(dir, 'notes');
  mkdirSync(notes);
  writeFileSync(path.join(notes, 'printer.md'), '# Printer\n\n## Two-sided printing\nPick Two-sided in the print dialog.\n');
  out = [];
  err = [];
  io = { stdout: (text) => out.push(text), stderr: (text) => err.push(text), env: { DESKPILOT_DATA_DIR: path.join(dir, 'data'), LANG: 'C' } };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (values: Record<string, string | boolean | string[] | undefined>, ...positionals: string[]) => docsCommand(values, positionals, io);

describe('deskpilot docs', () => {
  it('refuses an --app that is a path, before reading anything', async () => {
    for (const app of ['../../../etc', '..\\secret', '/etc', '..'])
      await expect(run({ app }, 'search', 'password'), app).rejects.toThrow(
        /an app name has no '\/', '\\' or '\.\.'; for a folder of documents use --folder DIR/,
      );
  });

  it('refuses a --folder that does not exist, naming it', async () => {
    await expect(run({ folder: ['/nonexistent'] }, 'search', 'print')).rejects.toThrow('--folder /nonexistent: no such folder (/nonexistent)');
    await expect(run({ folder: [path.join(notes, 'printer.md')] }, 'index')).rejects.toThrow(/not a folder/);
  });

  it('names the app without help, where it looked, and how to add a folder', async () => {
    const error = (await run({ app: 'no-such-app-zz' }, 'search', 'print').catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/^no-such-app-zz has no help pages or man pages: looked in .*no-such-app-zz.*man pages .*no-such-app-zz\.\*/);
    expect(error.message).toContain('add a folder: --folder DIR (repeatable), or DESKPILOT_DOCS_FOLDERS=DIR1:DIR2');
    expect(error.message).not.toContain('give --folder DIR or --app NAME');
    // With a folder too, it searches the folder and says the app had none.
    expect(await run({ app: 'no-such-app-zz', folder: [notes] }, 'search', 'two-sided')).toBe(0);
    expect(err.join('\n')).toMatch(/no-such-app-zz has no help pages or man pages \(looked in .*\); searching your folders only/);
  });

  it('prints indexing progress only when files are read, and counts in the singular for one', async () => {
    expect(await run({ folder: [notes] }, 'index')).toBe(0);
    expect(err).toEqual(['deskpilot docs: indexing 1/1 file']);
    expect(out[0]).toMatch(/^1 file, 1 section read \(1 new or changed, 0 unchanged, 0 removed\), 0 skipped, \d+ ms$/);
    err.length = 0;
    expect(await run({ folder: [notes] }, 'search', 'two-sided')).toBe(0);
    expect(err.filter((line) => line.includes('indexing'))).toEqual([]);
    expect(out.join('\n')).toContain('Printer › Two-sided printing');
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const outDir = mkdtempSync(path.join(tmpdir(), 'deskpilot-build-'));

beforeAll(async () => {
  const cli = path.join(root, 'node_modules/electron-vite/bin/electron-vite.js');
  await promisify(execFile)(process.execPath, [cli, 'build', '--outDir', outDir], { cwd: root });
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('electron-vite build', () => {
  it('produces main, preload and renderer', () => {
    for (const file of ['main/index.js', 'preload/index.cjs', 'renderer/index.html']) {
      expect(existsSync(path.join(outDir, file)), file).toBe(true);
    }
  });

  it('builds the automation host as its own entry, without electron', () => {
    const host = path.join(outDir, 'main/host.js');
    expect(existsSync(host)).toBe(true);
    expect(readFileSync(host, 'utf8')).not.toMatch(/from ["']electron["']|require\(["']electron["']\)/);
  });

  it('bundles the sandboxed preload so it requires nothing but electron', () => {
    const preload = readFileSync(path.join(outDir, 'preload/index.cjs'), 'utf8');
    expect([...preload.matchAll(/require\((["'][^"']+["'])\)/g)].map((match) => match[1])).toEqual(['"electron"']);
  });

  it('ships the renderer with a strict CSP and no inline script', () => {
    const html = readFileSync(path.join(outDir, 'renderer/index.html'), 'utf8');
    expect(html).toContain("default-src 'none'; script-src 'self';");
    expect(html).not.toContain('unsafe-inline');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});

/**
 * `npm start`'s prestart when Electron's binary cannot be downloaded: one paragraph saying
 * what and from where, why, the variables that help, and that the CLI works without it.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronUrl, explainDownloadFailure, fetchProblem } from '../../scripts/electron-download.mjs';

const root = path.resolve(import.meta.dirname, '../..');

describe('the Electron download failure', () => {
  it('names the URL @electron/get fetches, from the same variables', () => {
    const target = { version: '45.4.1', platform: 'linux', arch: 'x64' };
    expect(electronUrl({ ...target, env: {} })).toBe('https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip');
    expect(electronUrl({ ...target, env: { ELECTRON_MIRROR: 'https://npmmirror.com/mirrors/electron/', ELECTRON_CUSTOM_DIR: '{{ version }}' } })).toBe(
      'https://npmmirror.com/mirrors/electron/45.4.1/electron-v45.4.1-linux-x64.zip',
    );
  });

  it('tells offline, refused, timed out and a certificate apart', () => {
    const because = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
    expect(fetchProblem(because('ENOTFOUND'))).toMatch(/offline/);
    expect(fetchProblem(because('ECONNREFUSED'))).toMatch(/refused/);
    expect(fetchProblem(because('UND_ERR_CONNECT_TIMEOUT'))).toMatch(/firewall, or a proxy/);
    expect(fetchProblem(because('SELF_SIGNED_CERT_IN_CHAIN'))).toMatch(/certificate/);
  });

  it('is one paragraph with the way out and the CLI that needs no Electron', () => {
    const text = explainDownloadFailure({ version: '45.4.1', url: 'https://example.test/e.zip', why: 'the connection was refused' });
    expect(text).not.toContain('\n');
    for (const part of ['https://example.test/e.zip', 'ELECTRON_MIRROR', 'HTTPS_PROXY', 'ELECTRON_GET_USE_PROXY', 'npm run deskpilot -- mcp'])
      expect(text).toContain(part);
  });

  it('replaces the installer’s stack trace when the download really fails', async () => {
    // A copy of Electron's installer with no binary next to it, pointed at a port nobody listens on.
    const folder = mkdtempSync(path.join(tmpdir(), 'deskpilot-electron-'));
    for (const file of ['install.js', 'package.json', 'checksums.json']) copyFileSync(path.join(root, 'node_modules/electron', file), path.join(folder, file));
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const run = spawnSync(process.execPath, [path.join(root, 'scripts/install-electron.mjs')], {
      env: {
        ...process.env,
        DESKPILOT_ELECTRON_INSTALLER: path.join(folder, 'install.js'),
        NODE_PATH: path.join(root, 'node_modules'),
        ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
        electron_config_cache: path.join(folder, 'cache'),
      },
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^deskpilot: npm start could not download Electron [\\d.]+, .* from http://127\\.0\\.0\\.1:${port}/v[\\d.]+/electron-v.*\\.zip: the connection was refused\\. `,
      ),
    );
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

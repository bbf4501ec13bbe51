// @ts-check
/* global fetch, AbortSignal */
// npm start's prestart: Electron's own installer (node_modules/electron/install.js), which
// downloads the binary on first use. When that fails it prints a bare `TypeError: fetch failed`
// and a stack trace from @electron/get; this says instead what failed, why and what to do.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { electronUrl, explainDownloadFailure, fetchProblem } from './electron-download.mjs';

const require = createRequire(import.meta.url);
const installer = process.env['DESKPILOT_ELECTRON_INSTALLER'] ?? require.resolve('electron/install.js');
const { version } = /** @type {{ version: string }} */ (JSON.parse(readFileSync(path.join(path.dirname(installer), 'package.json'), 'utf8')));

const run = spawnSync(process.execPath, [installer], { stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
if (run.status === 0) process.exit(0);

const platform = process.env['ELECTRON_INSTALL_PLATFORM'] ?? process.env['npm_config_platform'] ?? process.platform;
const arch = process.env['ELECTRON_INSTALL_ARCH'] ?? process.env['npm_config_arch'] ?? process.arch;
const url = electronUrl({ version, platform, arch, env: process.env });
const said =
  (run.stderr ?? '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim() ?? `exit code ${run.status}`;
// The installer's error says only "fetch failed"; one look at the same URL tells offline from refused from a proxy.
const why = /fetch failed|ENOTFOUND|ECONN|ETIMEDOUT|getaddrinfo|socket/i.test(said)
  ? await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(5000) }).then(
      (response) => `${said} (the server answers HTTP ${response.status} now; try again)`,
      (error) => fetchProblem(error),
    )
  : said;
process.stderr.write(`${explainDownloadFailure({ version, url, why })}\n`);
process.exit(1);

import { fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app-build';

let outDir = '';

// `npm run build`, made once per state of the sources and shared with test/packaging/packed-app.test.ts.
beforeAll(async () => {
  outDir = await buildApp();
}, 240_000);

describe('electron-vite build', () => {
  it('produces main, preload and renderer', () => {
    for (const file of ['main/index.js', 'main/docs-parse-worker.js', 'preload/index.cjs', 'renderer/index.html']) {
      expect(existsSync(path.join(outDir, file)), file).toBe(true);
    }
  });

  it('builds the automation host as its own entry, without electron', () => {
    const host = path.join(outDir, 'main/host.js');
    expect(existsSync(host)).toBe(true);
    // The host and every chunk it may load are core code; only main's own index.js imports electron.
    const chunks = readdirSync(path.join(outDir, 'main/chunks')).map((file) => path.join(outDir, 'main/chunks', file));
    for (const file of [host, ...chunks]) expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ["']electron["']|require\(["']electron["']\)/);
  });

  it('runs the built host under plain Node: ready, then a reply', async () => {
    // The bundle's package imports (openai, zod) and its ESM format come from the project: out/ is inside it.
    const child = fork(path.join(outDir, 'main/host.js'), ['--main-pid=1'], {
      env: { ...process.env, DESKPILOT_PLATFORM: 'fake' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      // The host service's wire: an `event` named ready, then the `result` of request 1.
      type Wire = { rpc: string; event?: string; id?: number; payload?: unknown; value?: unknown };
      const messages: Wire[] = [];
      const next = (test: (message: Wire) => boolean): Promise<Wire> =>
        new Promise((resolve) => {
          const found = messages.find(test);
          if (found !== undefined) resolve(found);
          else child.on('message', (message: Wire) => test(message) && resolve(message));
        });
      child.on('message', (message: Wire) => messages.push(message));
      expect(await next((message) => message.rpc === 'event' && message.event === 'ready')).toMatchObject({ payload: { pid: child.pid } });
      child.send({ rpc: 'request', id: 1, method: 'frontmost', params: {} });
      expect(await next((message) => message.rpc === 'result')).toMatchObject({ id: 1, value: { pid: 4242 } });
    } finally {
      child.kill();
    }
  }, 20_000);

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

import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InlineConfig } from 'vite';
import { ROOT, releaseBuildLock, sourceHash, takeBuildLock } from '../../source-build';

/** The build depends only on these files, so their hash names it and one build serves every test file and the bench. */
const INPUTS = ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'package-lock.json'];

/**
 * Builds the renderer as electron-vite would (its own renderer config, production mode) into a
 * temp folder, or reuses that build when the sources have not changed. A clean run builds it
 * once: parallel workers take a lock, and the ones that wait find the build made. Should the
 * wait run out, both build; the first rename wins and the other build is dropped.
 */
export async function buildRenderer(): Promise<string> {
  const cacheRoot = path.join(tmpdir(), 'deskpilot-renderer-build');
  const outDir = path.join(cacheRoot, sourceHash(INPUTS));
  const built = () => existsSync(path.join(outDir, 'index.html'));
  if (built()) return outDir;
  mkdirSync(cacheRoot, { recursive: true });
  const lockDir = `${outDir}.lock`;
  const held = await takeBuildLock(lockDir, built);
  try {
    if (!built()) await buildInto(outDir);
  } finally {
    if (held) releaseBuildLock(lockDir);
  }
  return outDir;
}

async function buildInto(outDir: string): Promise<void> {
  const workDir = `${outDir}.${process.pid}.${Date.now()}`;
  // Loaded only to build: most runs find the build made, and Vite costs each test file a fifth of a second to load.
  const [{ build }, { default: config }] = await Promise.all([import('vite'), import('../../../electron.vite.config')]);
  const renderer = config.renderer ?? {};
  const inline: InlineConfig = {
    ...renderer,
    configFile: false,
    root: path.join(ROOT, 'src/renderer'),
    base: './',
    mode: 'production',
    logLevel: 'warn',
    build: { ...renderer.build, outDir: workDir, emptyOutDir: true, rollupOptions: { input: { index: path.join(ROOT, 'src/renderer/index.html') } } },
  };
  // Vite and the React transform decide dev or production by NODE_ENV, which vitest sets to 'test'.
  const nodeEnv = process.env['NODE_ENV'];
  process.env['NODE_ENV'] = 'production';
  try {
    await build(inline);
  } finally {
    if (nodeEnv === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = nodeEnv;
  }
  try {
    renameSync(workDir, outDir);
  } catch {
    rmSync(workDir, { recursive: true, force: true });
  }
}

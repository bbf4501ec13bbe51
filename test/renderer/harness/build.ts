import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { InlineConfig } from 'vite';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const INPUTS = ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'package-lock.json'];

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(full, name))
    .filter((name) => statSync(name).isFile())
    .sort();
}

/** The build depends only on these files, so their hash names it and one build serves every test file and the bench. */
function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the renderer as electron-vite would (its own renderer config, production mode) into a
 * temp folder, or reuses that build when the sources have not changed. Parallel test workers may
 * both build; the first rename wins and the other build is dropped.
 */
export async function buildRenderer(): Promise<string> {
  const cacheRoot = path.join(tmpdir(), 'deskpilot-renderer-build');
  const outDir = path.join(cacheRoot, sourceHash());
  if (existsSync(path.join(outDir, 'index.html'))) return outDir;
  mkdirSync(cacheRoot, { recursive: true });
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
  return outDir;
}

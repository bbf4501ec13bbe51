import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** How long a worker waits for another one's build before building itself: a cold build takes 10-30 s on a busy machine. */
const LOCK_WAIT_MS = 180_000;
const LOCK_POLL_MS = 250;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in the lock, or NaN while it is unwritten (or the lock has just gone). */
function ownerOf(lockDir: string): number {
  try {
    return Number.parseInt(readFileSync(path.join(lockDir, 'pid'), 'utf8'), 10);
  } catch {
    return Number.NaN;
  }
}

/**
 * Takes the build lock (an atomic mkdir) or waits, bounded, while a live process holds it. A lock
 * whose owner is gone is taken over. Returns whether this process holds the lock; false means the
 * wait ran out, and the caller builds anyway (the rename below keeps that safe).
 */
async function lock(lockDir: string, done: () => boolean): Promise<boolean> {
  for (let waited = 0; waited < LOCK_WAIT_MS && !done(); waited += LOCK_POLL_MS) {
    try {
      mkdirSync(lockDir);
      writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return true;
    } catch {
      const owner = ownerOf(lockDir);
      // No pid yet: the owner is between its mkdir and its write, so it is alive.
      if (Number.isInteger(owner) && !alive(owner)) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  return false;
}

/**
 * Builds the renderer as electron-vite would (its own renderer config, production mode) into a
 * temp folder, or reuses that build when the sources have not changed. A clean run builds it
 * once: parallel workers take a lock, and the ones that wait find the build made. Should the
 * wait run out, both build; the first rename wins and the other build is dropped.
 */
export async function buildRenderer(): Promise<string> {
  const cacheRoot = path.join(tmpdir(), 'deskpilot-renderer-build');
  const outDir = path.join(cacheRoot, sourceHash());
  const built = () => existsSync(path.join(outDir, 'index.html'));
  if (built()) return outDir;
  mkdirSync(cacheRoot, { recursive: true });
  const lockDir = `${outDir}.lock`;
  const held = await lock(lockDir, built);
  try {
    if (!built()) await buildInto(outDir);
  } finally {
    if (held) rmSync(lockDir, { recursive: true, force: true });
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

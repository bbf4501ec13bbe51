/**
 * `npm run build` (electron-vite: main, the automation host, preload, renderer into out/) made
 * once per state of its sources, for the test files that need the built app: test/build.test.ts
 * checks what it holds and test/packaging/packed-app.test.ts packs it. Each built it on its own
 * before, the same build twice in one `npm test`.
 *
 * The build goes where `npm run build` puts it, ROOT/out, because electron-builder packs from
 * there. A stamp beside it (out/ but outside main, preload and renderer, so never packed) names
 * the hash of the sources and the time out/main/index.js was written: a build made by hand since
 * then rewrote that file, so the stamp no longer matches.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const OUT = path.join(ROOT, 'out');

/** What the build reads: the app's sources and the bindings they import (tests are never bundled), its config and the installed packages. */
const INPUTS = [
  'src',
  'native',
  'electron.vite.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.json',
  'tsconfig.node.json',
  'tsconfig.web.json',
];
const STAMP = path.join(OUT, '.test-build-sources');
const MAIN = path.join(OUT, 'main/index.js');
const LOCK = path.join(OUT, '.test-build-lock');
/** Two test workers may ask at once; the second waits for the first's build, this long at most. */
const WAIT_MS = 180_000;
const POLL_MS = 200;

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => !/\.test\.tsx?$/.test(name))
    .map((name) => path.join(full, name))
    .filter((name) => statSync(name).isFile())
    .sort();
}

export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

const stamp = (hash: string): string => `${hash} ${statSync(MAIN).mtimeMs}`;
const built = (hash: string): boolean => existsSync(STAMP) && existsSync(MAIN) && readFileSync(STAMP, 'utf8') === stamp(hash);

/** The lock's owner, if it is still running; a lock left by a killed run is taken over. */
function lockHeld(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(LOCK, 'utf8'));
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tryLock(): boolean {
  try {
    writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    if (lockHeld()) return false;
    rmSync(LOCK, { force: true });
    return false;
  }
}

/** Builds the app into out/ unless the build there is of these very sources; resolves to out/. */
export async function buildApp(): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const hash = sourceHash();
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (built(hash)) return OUT;
    if (tryLock()) break;
    if (Date.now() > deadline) throw new Error(`another test's build of out/ held ${LOCK} for ${WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    // Built by the lock's holder while this one waited.
    if (built(hash)) return OUT;
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    writeFileSync(STAMP, stamp(hash));
    return OUT;
  } finally {
    rmSync(LOCK, { force: true });
  }
}

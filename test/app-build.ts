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
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT, releaseBuildLock, sourceHash, takeBuildLock } from './source-build';

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
/** Two test workers may ask at once; the second waits for the first's build (bounded: source-build.ts). */
const LOCK = path.join(OUT, '.test-build-lock');

const stamp = (hash: string): string => `${hash} ${statSync(MAIN).mtimeMs}`;
const built = (hash: string): boolean => existsSync(STAMP) && existsSync(MAIN) && readFileSync(STAMP, 'utf8') === stamp(hash);

/** Builds the app into out/ unless the build there is of these very sources; resolves to out/. */
export async function buildApp(): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const hash = sourceHash(INPUTS, /\.test\.tsx?$/);
  if (!(await takeBuildLock(LOCK, () => built(hash)))) {
    if (built(hash)) return OUT;
    throw new Error(`another test's build of out/ held ${LOCK} too long`);
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
    releaseBuildLock(LOCK);
  }
}

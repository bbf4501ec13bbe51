/**
 * What the test builds share: a hash of the files a build reads, which names the build (one
 * build serves every test file of a run, and the next run while the sources stay the same), and
 * a lock, so two workers that find no build make it once.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

function files(entry: string, skip: RegExp | undefined): string[] {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((name) => skip === undefined || !skip.test(name))
    .map((name) => path.join(full, name))
    .filter((name) => statSync(name).isFile())
    .sort();
}

/** The hash of `inputs` (files and folders under the project, in order, names and contents), without the files `skip` matches. */
export function sourceHash(inputs: readonly string[], skip?: RegExp): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((entry) => files(entry, skip))) hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** How long a worker waits for another one's build: a cold build takes 10-30 s on a busy machine. */
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
 * Takes the build lock (an atomic mkdir) or waits, bounded, while a live process holds it or
 * until `done` says the build is there. A lock whose owner is gone is taken over. Returns
 * whether this process holds the lock (release it with releaseBuildLock); false means the build
 * came or the wait ran out, and the caller decides which.
 */
export async function takeBuildLock(lockDir: string, done: () => boolean): Promise<boolean> {
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

export function releaseBuildLock(lockDir: string): void {
  rmSync(lockDir, { recursive: true, force: true });
}

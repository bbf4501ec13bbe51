/**
 * The peak RSS of one real CLI run (the built `deskpilot`, as a user starts it), from GNU time's
 * `%M` (the process's VmHWM when it exits, in KiB): what a user's machine gives the command,
 * not this bench's own heap after earlier pages. Its stdout is counted and thrown away.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const GNU_TIME = '/usr/bin/time';
/** No CLI run holds a bench longer than this. */
const RUN_CAP_MS = 120_000;

export interface CliPeak {
  peakMb: number;
  wallMs: number;
  stdoutBytes: number;
  exitCode: number | null;
}

/**
 * Whether bin/deskpilot.js would run the TypeScript through tsx (a source file newer than
 * out/cli), as it decides: then a run's peak and time include tsx, not what a user runs.
 */
export function staleBuild(root: string): boolean {
  try {
    const built = statSync(path.join(root, 'out/cli/main.js')).mtimeMs;
    for (const folder of ['src/cli', 'src/core', 'src/mcp', 'src/shared', 'native'])
      for (const entry of readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true }))
        if (
          entry.isFile() &&
          !entry.name.endsWith('.test.ts') &&
          !entry.name.endsWith('.md') &&
          statSync(path.join(entry.parentPath, entry.name)).mtimeMs > built
        )
          return true;
    return false;
  } catch {
    return true;
  }
}

/** Runs `node bin/deskpilot.js ...args` under GNU time in `env`, bounded by RUN_CAP_MS. */
export function cliPeakRss(root: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliPeak> {
  return peakRss([process.execPath, path.join(root, 'bin/deskpilot.js'), ...args], env, root);
}

/** Any command's peak RSS under GNU time (killed past `capMs`: its exit code is then null). */
export function peakRss(command: readonly string[], env: NodeJS.ProcessEnv, cwd: string, capMs = RUN_CAP_MS): Promise<CliPeak> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // GNU time writes its line to stderr last, after the CLI's own stderr.
    const child = spawn(GNU_TIME, ['-f', 'peak_kib=%M', ...command], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), capMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      const match = /peak_kib=(\d+)/.exec(stderr);
      if (match === null) {
        reject(new Error(`no peak from ${GNU_TIME} (exit ${exitCode}): ${stderr.slice(-300)}`));
        return;
      }
      resolve({ peakMb: Number(match[1]) / 1024, wallMs: performance.now() - started, stdoutBytes, exitCode });
    });
  });
}

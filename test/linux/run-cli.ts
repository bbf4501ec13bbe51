/**
 * Runs the real `deskpilot` command in a child process with a deadline, for tests that break
 * the desktop on purpose: a process that outlives its deadline is killed and reported, never waited on.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './desktop';

export const NODE = path.join(ROOT, 'node_modules/.bin/node');
export const BIN = path.join(ROOT, 'bin/deskpilot.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Still running at the deadline (then killed): the hang these tests exist to catch. */
  lingered: boolean;
}

export function runCli(args: readonly string[], env: NodeJS.ProcessEnv, deadlineMs = 5000): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(NODE, [BIN, ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let lingered = false;
  const timer = setTimeout(() => {
    lingered = true;
    child.kill('SIGKILL');
  }, deadlineMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started), lingered });
    });
  });
}

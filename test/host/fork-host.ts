/**
 * The automation host under plain Node: child_process.fork, over Node's IPC channel instead of
 * Electron's parentPort. It runs the TypeScript source through tsx, or a bundle of the same
 * source (build-host.ts) when a test forks many hosts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostChild } from '../../src/main/host-link/host-supervisor';

const root = path.resolve(import.meta.dirname, '../..');
export const HOST_ENTRY = path.join(root, 'src/host/main.ts');

export interface ForkedHost extends HostChild {
  process: ChildProcess;
}

/** `entry`: HOST_ENTRY (TypeScript, through tsx) or a built host.js (plain Node). */
export function forkHost(env: Record<string, string | undefined>, mainPid = process.pid, entry = HOST_ENTRY): ForkedHost {
  // Each host keeps its documentation index in a folder of its own, never the developer's; it
  // goes when the host exits, or every run would leave one per fork behind.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'deskpilot-host-'));
  const child = fork(entry, [`--main-pid=${mainPid}`], {
    cwd: root,
    execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : [],
    env: { ...process.env, DESKPILOT_PLATFORM: 'fake', DESKPILOT_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  return {
    process: child,
    postMessage: (message) => void child.send(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.on('exit', (code) => listener(code)),
    kill: () => void child.kill(),
  };
}

import { utilityProcess } from 'electron';
import type { HostChild } from './host-supervisor';

/**
 * The automation host as an Electron utilityProcess: Node with no window, its own crash
 * domain, and a MessagePort-backed parentPort. `--main-pid` tells the agent which pid is ours.
 */
export function spawnUtilityHost(modulePath: string, dataDir: string): HostChild {
  const child = utilityProcess.fork(modulePath, [`--main-pid=${process.pid}`], {
    serviceName: 'Deskpilot automation host',
    stdio: 'inherit',
    // The documentation index lives in the app's own data folder.
    env: { ...process.env, DESKPILOT_DATA_DIR: dataDir },
  });
  return {
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.on('exit', listener),
    kill: () => void child.kill(),
  };
}

/** The host entry once more, with `--doctor`: it runs the Diagnose checks, answers one report and exits. */
export function spawnDoctorHost(modulePath: string, dataDir: string): HostChild & { postMessage(message: unknown): void } {
  const child = utilityProcess.fork(modulePath, [`--main-pid=${process.pid}`, '--doctor'], {
    serviceName: 'Deskpilot diagnosis',
    stdio: 'inherit',
    env: { ...process.env, DESKPILOT_DATA_DIR: dataDir },
  });
  return {
    postMessage: (message: unknown) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.on('exit', listener),
    kill: () => void child.kill(),
  };
}

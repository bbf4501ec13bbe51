import type { WireMessage } from '../shared/rpc/wire';

/** The host's one line to main, whichever way the process was started. */
export interface HostPort {
  post(message: WireMessage): void;
  onMessage(listener: (raw: unknown) => void): void;
  /** Called once when main is gone, so the host exits instead of running orphaned. */
  onClose(listener: () => void): void;
}

/**
 * Electron's `process.parentPort` inside a utilityProcess (typed as Electron.ParentPort; a
 * minimal copy here, because the core may not import electron).
 */
interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

interface ProcessLike {
  parentPort?: ParentPortLike;
  send?: (message: unknown) => boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'disconnect', listener: () => void): unknown;
}

/** The utilityProcess port when there is one, else Node's IPC channel (child_process.fork in tests). */
export function processPort(proc: ProcessLike = process as unknown as ProcessLike): HostPort {
  const parentPort = proc.parentPort;
  if (parentPort !== undefined) {
    return {
      post: (message) => parentPort.postMessage(message),
      onMessage: (listener) => void parentPort.on('message', (event) => listener(event.data)),
      // A utilityProcess dies with its parent; there is nothing to watch.
      onClose: () => undefined,
    };
  }
  const send = proc.send?.bind(proc);
  if (send === undefined) throw new Error('the automation host must be started by Deskpilot (utilityProcess or child_process.fork)');
  return {
    post: (message) => void send(message),
    onMessage: (listener) => void proc.on('message', listener),
    onClose: (listener) => void proc.on('disconnect', listener),
  };
}

import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processPort } from './port';

describe('processPort', () => {
  it("uses Electron's parentPort in a utilityProcess, unwrapping MessageEvent.data", () => {
    const posted: unknown[] = [];
    const parentPort = Object.assign(new EventEmitter(), { postMessage: (message: unknown) => posted.push(message) });
    const port = processPort({ parentPort, on: () => undefined });
    const received: unknown[] = [];
    port.onMessage((raw) => received.push(raw));
    parentPort.emit('message', { data: { type: 'stop' }, ports: [] });
    port.post({ type: 'ready', pid: 1 });
    expect(received).toEqual([{ type: 'stop' }]);
    expect(posted).toEqual([{ type: 'ready', pid: 1 }]);
  });

  it('falls back to the IPC channel of child_process.fork, and notices when main goes away', () => {
    const sent: unknown[] = [];
    const proc = Object.assign(new EventEmitter(), { send: (message: unknown) => sent.push(message) > 0 });
    const port = processPort(proc);
    const received: unknown[] = [];
    let closed = false;
    port.onMessage((raw) => received.push(raw));
    port.onClose(() => (closed = true));
    proc.emit('message', { type: 'clear' });
    proc.emit('disconnect');
    port.post({ type: 'log', level: 'info', text: 'hi' });
    expect(received).toEqual([{ type: 'clear' }]);
    expect(sent).toEqual([{ type: 'log', level: 'info', text: 'hi' }]);
    expect(closed).toBe(true);
  });

  it('refuses to run when nothing started it', () => {
    expect(() => processPort({ on: () => undefined })).toThrow(/must be started by Deskpilot/);
  });
});

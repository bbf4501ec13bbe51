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
    parentPort.emit('message', { data: { rpc: 'notify', method: 'stop', params: {} }, ports: [] });
    port.post({ rpc: 'event', event: 'ready', payload: { pid: 1 } });
    expect(received).toEqual([{ rpc: 'notify', method: 'stop', params: {} }]);
    expect(posted).toEqual([{ rpc: 'event', event: 'ready', payload: { pid: 1 } }]);
  });

  it('falls back to the IPC channel of child_process.fork, and notices when main goes away', () => {
    const sent: unknown[] = [];
    const proc = Object.assign(new EventEmitter(), { send: (message: unknown) => sent.push(message) > 0 });
    const port = processPort(proc);
    const received: unknown[] = [];
    let closed = false;
    port.onMessage((raw) => received.push(raw));
    port.onClose(() => (closed = true));
    proc.emit('message', { rpc: 'notify', method: 'clear', params: {} });
    proc.emit('disconnect');
    port.post({ rpc: 'event', event: 'log', payload: { level: 'info', text: 'hi' } });
    expect(received).toEqual([{ rpc: 'notify', method: 'clear', params: {} }]);
    expect(sent).toEqual([{ rpc: 'event', event: 'log', payload: { level: 'info', text: 'hi' } }]);
    expect(closed).toBe(true);
  });

  it('refuses to run when nothing started it', () => {
    expect(() => processPort({ on: () => undefined })).toThrow(/must be started by Deskpilot/);
  });
});

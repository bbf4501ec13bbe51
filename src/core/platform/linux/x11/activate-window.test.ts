import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activateWindow } from './activate-window';
import { ROOT, startFakeXServer, type FakeXServer } from './testing/fake-server';

let server: FakeXServer;

beforeEach(async () => {
  server = await startFakeXServer();
});

afterEach(async () => server.close());

const env = (): Record<string, string | undefined> => ({ DISPLAY: server.display, HOME: '/nonexistent' });

function setProperty(window: number, name: string, values: number[] | string): void {
  const properties = server.properties.get(window) ?? new Map<string, number[] | string>();
  properties.set(name, values);
  server.properties.set(window, properties);
}

describe('activateWindow over the X11 protocol', () => {
  it('sends _NET_ACTIVE_WINDOW (source: pager) to the root for the topmost window with the pid', async () => {
    setProperty(ROOT, '_NET_CLIENT_LIST_STACKING', [0x201, 0x301, 0x302]);
    setProperty(0x201, '_NET_WM_PID', [77]);
    setProperty(0x301, '_NET_WM_PID', [42]);
    setProperty(0x302, '_NET_WM_PID', [42]);
    expect(await activateWindow(env(), { pid: 42, titles: [] })).toBe('requested');
    const sent = server.requests.filter((request) => request.opcode === 25);
    expect(sent).toHaveLength(1);
    const body = (sent[0] as { body: Buffer }).body;
    expect(body.readUInt32LE(0)).toBe(ROOT);
    expect(body.readUInt32LE(4)).toBe((1 << 19) | (1 << 20));
    const event = body.subarray(8);
    expect([event.readUInt8(0), event.readUInt8(1)]).toEqual([33, 32]);
    // The most recently used window of the app: last in stacking order.
    expect(event.readUInt32LE(4)).toBe(0x302);
    expect(server.atomName(event.readUInt32LE(8))).toBe('_NET_ACTIVE_WINDOW');
    expect(event.readUInt32LE(12)).toBe(2);
  });

  it('reports no window when no managed window has the pid', async () => {
    setProperty(ROOT, '_NET_CLIENT_LIST', [0x201]);
    setProperty(0x201, '_NET_WM_PID', [77]);
    expect(await activateWindow(env(), { pid: 42, titles: ['Notes'] })).toBe('no-window');
    expect(server.requests.some((request) => request.opcode === 25)).toBe(false);
  });

  it('falls back to the window title for windows without _NET_WM_PID', async () => {
    setProperty(ROOT, '_NET_CLIENT_LIST', [0x201, 0x202]);
    setProperty(0x201, '_NET_WM_NAME', 'Terminal');
    setProperty(0x202, '_NET_WM_NAME', 'Notes — ünïcode');
    expect(await activateWindow(env(), { pid: 42, titles: ['Notes — ünïcode'] })).toBe('requested');
    const event = (server.requests.find((request) => request.opcode === 25) as { body: Buffer }).body.subarray(8);
    expect(event.readUInt32LE(4)).toBe(0x202);
    expect(await activateWindow(env(), { pid: 42, titles: ['Spreadsheet'] })).toBe('no-window');
  });

  it('with no window manager, raises and focuses the mapped top-level window of the pid', async () => {
    server.children = [0x401, 0x402];
    setProperty(0x401, '_NET_WM_PID', [42]); // GTK's unmapped client leader carries the pid too
    setProperty(0x402, '_NET_WM_PID', [42]);
    server.viewable.add(0x402);
    expect(await activateWindow(env(), { pid: 42, titles: [] })).toBe('focused');
    const configure = server.requests.find((request) => request.opcode === 12);
    expect(configure?.body.readUInt32LE(0)).toBe(0x402);
    expect(configure?.body.readUInt16LE(4)).toBe(0x40);
    const focus = server.requests.find((request) => request.opcode === 42);
    expect(focus?.body.readUInt32LE(0)).toBe(0x402);
  });

  it('an X error on the request rejects; it does not end the process as Xlib would', async () => {
    setProperty(ROOT, '_NET_CLIENT_LIST', [0x201]);
    setProperty(0x201, '_NET_WM_PID', [42]);
    server.failing.add(25);
    await expect(activateWindow(env(), { pid: 42, titles: [] })).rejects.toThrow(/X11 error 3 on SendEvent/);
  });

  it('a refused connection rejects with the server’s reason', async () => {
    server.refuse = 'Authorization required, but no authorization protocol specified';
    await expect(activateWindow(env(), { pid: 42, titles: [] })).rejects.toThrow(/refused the connection: Authorization required/);
  });

  it('rejects when nothing listens on the display', async () => {
    await expect(activateWindow({ DISPLAY: '127.0.0.1:1', HOME: '/nonexistent' }, { pid: 42, titles: [] }, 300)).rejects.toThrow();
    await expect(activateWindow({}, { pid: 42, titles: [] })).rejects.toThrow(/not a display name/);
  });
});

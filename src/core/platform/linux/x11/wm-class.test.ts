import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, startFakeXServer, type FakeXServer } from './testing/fake-server';
import { parseWmClass, wmClassesByPid } from './wm-class';

let server: FakeXServer | undefined;
afterEach(async () => server?.close());

describe('WM_CLASS', () => {
  it('reads instance and class, bounded and without control characters', () => {
    expect(parseWmClass(Buffer.from('libreoffice-writer\0libreoffice-writer\0', 'latin1'))).toEqual(['libreoffice-writer', 'libreoffice-writer']);
    expect(parseWmClass(Buffer.from(`evil\u001b[31m${'x'.repeat(500)}\0Class\0third\0`, 'latin1'))).toEqual([`evil[31m${'x'.repeat(92)}`, 'Class']);
  });

  it("gathers each pid's window classes from the window manager's list", async () => {
    server = await startFakeXServer();
    server.properties.set(ROOT, new Map([['_NET_CLIENT_LIST_STACKING', [0x201, 0x202, 0x203]]]));
    server.properties.set(
      0x201,
      new Map<string, number[] | string>([
        ['_NET_WM_PID', [42]],
        ['WM_CLASS', 'libreoffice-writer\0libreoffice-writer\0'],
      ]),
    );
    server.properties.set(
      0x202,
      new Map<string, number[] | string>([
        ['_NET_WM_PID', [42]],
        ['WM_CLASS', 'libreoffice-calc\0libreoffice-calc\0'],
      ]),
    );
    // No pid on it: not tied to any app.
    server.properties.set(0x203, new Map<string, number[] | string>([['WM_CLASS', 'stray\0Stray\0']]));
    const classes = await wmClassesByPid({ DISPLAY: server.display });
    expect([...classes]).toEqual([[42, ['libreoffice-writer', 'libreoffice-calc']]]);
  });

  it('is empty, not an error, without a display', async () => {
    expect((await wmClassesByPid({ DISPLAY: '' })).size).toBe(0);
    expect((await wmClassesByPid({ DISPLAY: ':987' })).size).toBe(0);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureWindow } from './capture';
import { ROOT, startFakeXServer, type FakeXServer } from './testing/fake-server';
import { windowOwnerAt } from './window-at';

/** A window of another process stacked over the app's leaks nothing through a capture, and takes no input meant for the app. */
let server: FakeXServer;

beforeEach(async () => {
  server = await startFakeXServer();
});

afterEach(async () => server.close());

const env = (): Record<string, string | undefined> => ({ DISPLAY: server.display, HOME: '/nonexistent' });

function window(id: number, pid: number | undefined, place: { x: number; y: number; width: number; height: number }, color: number, title?: string): void {
  const properties = new Map<string, number[] | string>();
  if (pid !== undefined) properties.set('_NET_WM_PID', [pid]);
  if (title !== undefined) properties.set('_NET_WM_NAME', title);
  server.properties.set(id, properties);
  server.geometry.set(id, place);
  server.colors.set(id, color);
  server.viewable.add(id);
}

const APP = 0x301;
const OTHER = 0x302;
const OWN_DIALOG = 0x303;
const UNTITLED = 0x304;
/** An unmanaged (override-redirect) popup of another process: not in the window manager's list. */
const POPUP = 0x305;
/** The window manager's frames around the two managed windows. */
const APP_FRAME = 0x501;
const OTHER_FRAME = 0x502;

beforeEach(() => {
  window(APP, 42, { x: 100, y: 100, width: 200, height: 100 }, 0xff0000);
  window(OTHER, 77, { x: 150, y: 120, width: 60, height: 30 }, 0x00ff00);
  // The app's own popup, which carries no pid: known by the app's window title.
  window(OWN_DIALOG, undefined, { x: 250, y: 150, width: 20, height: 20 }, 0x0000ff, 'Notes');
  window(UNTITLED, undefined, { x: 110, y: 170, width: 10, height: 10 }, 0xffff00, 'Some other tool');
  window(POPUP, 99, { x: 280, y: 110, width: 10, height: 10 }, 0x00ffff);
  server.stacking = [APP, OTHER, OWN_DIALOG, UNTITLED, POPUP];
  // A window manager: it lists the managed windows, and the root holds frames around them.
  server.properties.set(ROOT, new Map([['_NET_CLIENT_LIST_STACKING', [APP, OTHER]]]));
  for (const [frame, client] of [
    [APP_FRAME, APP],
    [OTHER_FRAME, OTHER],
  ] as const) {
    server.tree.set(frame, [client]);
    server.geometry.set(frame, server.geometry.get(client) as { x: number; y: number; width: number; height: number });
    server.viewable.add(frame);
  }
  server.children = [APP_FRAME, OTHER_FRAME, OWN_DIALOG, UNTITLED, POPUP];
});

/** The RGB of a capture's pixel at a screen point. */
function rgbAt(image: { x: number; y: number; width: number; data: Buffer }, x: number, y: number): number[] {
  const at = ((y - image.y) * image.width + (x - image.x)) * 4;
  return [image.data[at] as number, image.data[at + 1] as number, image.data[at + 2] as number];
}

describe('a capture of one app', () => {
  it("paints black every other process's window over it, and keeps the app's own", async () => {
    const image = await captureWindow(env(), { pid: 42, titles: ['Notes'] }, []);
    expect([image.x, image.y, image.width, image.height]).toEqual([100, 100, 200, 100]);
    expect(rgbAt(image, 105, 105)).toEqual([255, 0, 0]);
    expect(rgbAt(image, 160, 130)).toEqual([0, 0, 0]); // the other app's window
    expect(rgbAt(image, 115, 175)).toEqual([0, 0, 0]); // a window without a pid, not titled like the app's
    expect(rgbAt(image, 255, 155)).toEqual([0, 0, 255]); // the app's own dialog
    expect(rgbAt(image, 285, 115)).toEqual([0, 0, 0]); // another process's unmanaged popup
  });

  it('leaves a minimized window of another app alone: it covers nothing', async () => {
    server.viewable.delete(OTHER);
    server.viewable.delete(OTHER_FRAME);
    server.stacking = [APP, OWN_DIALOG];
    const image = await captureWindow(env(), { pid: 42, titles: ['Notes'] }, []);
    expect(rgbAt(image, 160, 130)).toEqual([255, 0, 0]);
  });
});

describe('windowOwnerAt', () => {
  it('names the process whose window is on top at a point', async () => {
    expect(await windowOwnerAt(env(), { x: 160, y: 130 })).toEqual({ pid: 77 });
    expect(await windowOwnerAt(env(), { x: 105, y: 105 })).toEqual({ pid: 42 });
    expect(await windowOwnerAt(env(), { x: 112, y: 172 })).toEqual({ title: 'Some other tool' });
    expect(await windowOwnerAt(env(), { x: 285, y: 115 })).toEqual({ pid: 99 });
    expect(await windowOwnerAt(env(), { x: 900, y: 700 })).toBeUndefined();
  });

  it('without root children to read, falls back to the window manager’s list', async () => {
    server.children = [];
    expect(await windowOwnerAt(env(), { x: 160, y: 130 })).toEqual({ pid: 77 });
  });

  it('skips windows that are not shown', async () => {
    server.viewable.delete(OTHER_FRAME);
    expect(await windowOwnerAt(env(), { x: 160, y: 130 })).toEqual({ pid: 42 });
  });
});

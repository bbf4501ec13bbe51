import { describe, expect, it } from 'vitest';
import { MOUSE_GAP_MS, NO_KEY_CODE, TYPE_GAP_MS } from './cgevent-input';
import { MAC_KEY_CODES } from './keycodes';
import type { UiNode } from '../../../shared/ui-node';
import { harness, type Harness } from './testing/setup';
import { sampleApp } from './testing/fake-world';

/** Reads the app's first window and asks for its bounds: an element resolved for an action. */
async function actOn(test: Harness, pid: number): Promise<void> {
  const tree = await test.platform.accessibility.getTree(pid, { maxNodes: 2 });
  await test.platform.accessibility.bounds?.(tree.children?.[0]?.ref, {} as UiNode);
}

describe('darwin input', () => {
  it('uses nut-js first and says so', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.click({ x: 5, y: 5 });
    expect(test.nut.calls).toEqual(['click']);
    expect(test.platform.input.lastDriver).toBe('nut-js');
    expect(test.fake.posted).toEqual([]);
    await test.finish();
  });

  it('falls back to CGEvent when nut-js cannot load at all', async () => {
    const test = await harness([sampleApp()]);
    const { DarwinInput } = await import('./input');
    const { CgEventInput } = await import('./cgevent-input');
    const input = new DarwinInput(() => Promise.reject(new Error('libnut missing')), new CgEventInput(test.fake as never, () => 501));
    await input.pressKey('return', []);
    await input.pressKey('a', []);
    expect(input.lastDriver).toBe('cgevent');
    expect(test.fake.posted.map(({ event }) => event.keyCode)).toEqual([0x24, 0x24, 0x00, 0x00]);
    await test.finish();
  });

  it('once nut-js has worked, a failure partway is reported, never redone through CGEvent (no duplicated text)', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.click({ x: 5, y: 5 });
    test.nut.failing = true;
    await expect(test.platform.input.typeText('Hello')).rejects.toMatchObject({ code: 'ACTION_FAILED', message: expect.stringContaining('typeText') });
    await expect(test.platform.input.pressKey('a', [], 501)).rejects.toMatchObject({ code: 'ACTION_FAILED' });
    expect(test.fake.posted).toEqual([]);
    expect(test.nut.calls).toEqual(['click', 'typeText Hello', 'pressKey a']);
    await test.finish();
  });

  it('nut-js failing on its first call (no grant) hands that step and all later ones to CGEvent', async () => {
    const test = await harness([sampleApp()]);
    test.nut.failing = true;
    await test.platform.input.typeText('Hi');
    test.nut.failing = false;
    await test.platform.input.typeText('yo');
    expect(test.nut.calls).toEqual(['typeText Hi']);
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.unicode)).toEqual(['H', 'i', 'y', 'o']);
    expect(test.platform.input.lastDriver).toBe('cgevent');
    await test.finish();
  });

  it('key: virtual key code with modifier flags, down then up, posted to the target pid', async () => {
    const test = await harness([sampleApp()]);
    test.nut.failing = true;
    await test.platform.input.pressKey('s', ['meta', 'shift'], 501);
    expect(test.platform.input.lastDriver).toBe('cgevent');
    expect(test.fake.posted).toEqual([
      { pid: 501, event: expect.objectContaining({ kind: 'keyboard', keyCode: 0x01, keyDown: true, flags: 0x120000n }) },
      { pid: 501, event: expect.objectContaining({ kind: 'keyboard', keyCode: 0x01, keyDown: false, flags: 0x120000n }) },
    ]);
    expect(test.fake.callsOf('CGEventPostToPid').map((call) => call.args[0])).toEqual([501, 501]);
    await test.finish();
  });

  it('a shifted character adds the shift flag; without a pid events go to the app last acted on', async () => {
    const test = await harness([sampleApp()]);
    test.nut.failing = true;
    await test.platform.input.pressKey('!', []);
    expect(test.fake.posted.map(({ tap, pid, event }) => [tap, pid, event.keyCode, event.flags])).toEqual([
      [0, undefined, 0x12, 0x20000n],
      [0, undefined, 0x12, 0x20000n],
    ]);
    await actOn(test, 501);
    await test.platform.input.pressKey('escape', ['ctrl', 'alt']);
    expect(test.fake.posted.slice(2).map(({ pid, event }) => [pid, event.keyCode, event.flags])).toEqual([
      [501, 0x35, 0xc0000n],
      [501, 0x35, 0xc0000n],
    ]);
    await test.finish();
  });

  it('key: arrows carry SecondaryFn and NumericPad, Home/End/Page and F-keys SecondaryFn, as a real keyboard sets them', async () => {
    const test = await harness([sampleApp()]);
    test.nut.failing = true;
    for (const key of ['up', 'left', 'home', 'pagedown', 'f5', 'a']) await test.platform.input.pressKey(key, ['meta'], 501);
    const downs = test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.flags);
    expect(downs).toEqual([0xb00000n, 0xb00000n, 0x900000n, 0x900000n, 0x900000n, 0x100000n]);
    await test.finish();
  });

  it('the target is the pid of the last element acted on, not of the last tree read, and never a dead pid', async () => {
    const notes = sampleApp();
    const other = { ...sampleApp(502), name: 'Other' };
    const test = await harness([notes, other]);
    test.nut.failing = true;
    await actOn(test, 501);
    await test.platform.accessibility.getTree(502, { maxNodes: 2 });
    await test.platform.input.typeText('a');
    notes.dead = true;
    await test.platform.input.typeText('b');
    expect(test.fake.posted.map(({ tap, pid, event }) => [tap, pid, event.unicode])).toEqual([
      [undefined, 501, 'a'],
      [undefined, 501, 'a'],
      [0, undefined, 'b'],
      [0, undefined, 'b'],
    ]);
    await test.finish();
  });

  it('scroll: CGEventCreateScrollWheelEvent2 in lines at the point, through the HID tap after raising the app acted on', async () => {
    const app = sampleApp();
    const test = await harness([app], { focusedPid: 777 });
    test.nut.failing = true;
    await actOn(test, 501);
    await test.platform.input.scroll({ x: 300, y: 400 }, 'down', 3);
    await test.platform.input.scroll({ x: 300, y: 400 }, 'left', 2);
    expect(test.fake.callsOf('CGEventCreateScrollWheelEvent2').map((call) => call.args)).toEqual([
      [null, 1, 2, -3, 0, 0],
      [null, 1, 2, 0, 2, 0],
    ]);
    const scrolls = test.fake.delivered.filter(({ event }) => event.kind === 'scroll');
    expect(scrolls.map(({ tap, pid, event }) => [tap, pid, event.location])).toEqual([
      [0, undefined, { x: 300, y: 400 }],
      [0, undefined, { x: 300, y: 400 }],
    ]);
    // The pointer is moved to the point first, so the view under it is the one that scrolls.
    expect(test.fake.posted[0]?.event).toMatchObject({ kind: 'mouse', type: 5, location: { x: 300, y: 400 } });
    expect(app.appSets).toContain('AXFrontmost');
    expect(test.fake.posted.filter((post) => post.dropped === true)).toEqual([]);
    await test.finish();
  });

  it('type: one key event pair per character, with the Unicode string, the key code of the current layout and a gap (issue 20, point 7)', async () => {
    const test = await harness([sampleApp()]);
    const text = 'Hallo yz ö😀\n';
    await test.platform.input.typeText(text);
    expect(test.nut.calls).toEqual([]);
    expect(test.platform.input.lastDriver).toBe('cgevent');
    const downs = test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event);
    expect(downs.map((event) => event.unicode)).toEqual(['H', 'a', 'l', 'l', 'o', ' ', 'y', 'z', ' ', 'ö', '😀', '\r']);
    // German layout (the fake's): y and z swap places with US; ö has its own key; the emoji has none; a line break is Return.
    expect(downs.map((event) => event.keyCode)).toEqual([0x04, 0x00, 0x25, 0x25, 0x1f, 0x31, 0x06, 0x10, 0x31, 0x29, NO_KEY_CODE, 0x24]);
    expect(downs.map((event) => event.flags)).toEqual([0x20000n, ...Array<bigint>(11).fill(0n)]);
    expect(test.fake.callsOf('CGEventKeyboardSetUnicodeString').map((call) => call.args[1])).toEqual([...Array<number>(20).fill(1), 2, 2, 1, 1]);
    expect(test.sleeps).toEqual(Array<number>(24).fill(TYPE_GAP_MS));
    expect(test.platform.input.canType?.('😀')).toBe(true);
    await test.finish();
  });

  it('type and key: without Unicode layout data, or off the main thread, the US table stands in and TIS is never called there', async () => {
    const test = await harness([sampleApp()], { keyboard: null });
    test.nut.failing = true;
    await test.platform.input.typeText('z');
    await test.platform.input.pressKey('z', ['meta'], 501);
    test.fake.world.offMainThread = true;
    await test.platform.input.pressKey('y', ['meta'], 501);
    const downs = test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.keyCode);
    expect(downs).toEqual([0x06, 0x06, 0x10]);
    expect(test.fake.callsOf('TISCopyCurrentKeyboardLayoutInputSource')).toHaveLength(2);
    await test.finish();
  });

  it('key: a character key follows the current layout, so cmd+z is Undo on a German keyboard too (issue 20, point 7)', async () => {
    const test = await harness([sampleApp()]);
    test.nut.failing = true;
    await test.platform.input.pressKey('z', ['meta'], 501);
    await test.platform.input.pressKey('Y', [], 501);
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => [event.keyCode, event.flags])).toEqual([
      [0x10, 0x100000n],
      [0x06, 0x20000n],
    ]);
    await test.finish();
  });

  it('type: plain ASCII goes through nut-js', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.typeText('Hello!');
    expect(test.nut.calls).toEqual(['typeText Hello!']);
    await test.finish();
  });

  it('drag through CGEvent: down, dragged moves while held, up where the pointer is', async () => {
    const test = await harness([sampleApp()]);
    test.nut.failing = true;
    await test.platform.accessibility.getTree(501, { maxNodes: 2 });
    await test.platform.input.moveMouse({ x: 10, y: 10 });
    await test.platform.input.mouseDown();
    await test.platform.input.moveMouse({ x: 20, y: 20 });
    await test.platform.input.moveMouse({ x: 30, y: 30 });
    await test.platform.input.mouseUp();
    await test.platform.input.moveMouse({ x: 40, y: 40 });
    expect(test.fake.posted.map(({ event }) => [event.type, event.location?.x])).toEqual([
      [5, 10],
      [1, 10],
      [6, 20],
      [6, 30],
      [2, 30],
      [5, 40],
    ]);
    await test.finish();
  });

  it('a drag begun by nut-js continues as dragged events if nut-js fails midway', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.moveMouse({ x: 10, y: 10 });
    await test.platform.input.mouseDown();
    test.nut.failing = true;
    await test.platform.input.moveMouse({ x: 20, y: 20 });
    expect(test.fake.posted.map(({ event }) => event.type)).toEqual([6]);
    await test.finish();
  });

  it('covers letters, digits, return, escape, tab, space, delete, arrows, home/end/page keys and F1–F12', () => {
    const names = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].concat(
      [...'0123456789'].map((digit) => `Num${digit}`),
      ['Enter', 'Escape', 'Tab', 'Space', 'Backspace', 'Delete', 'Up', 'Down', 'Left', 'Right', 'Home', 'End', 'PageUp', 'PageDown'],
      Array.from({ length: 12 }, (_unused, index) => `F${index + 1}`),
    );
    for (const name of names) expect(MAC_KEY_CODES[name], name).toBeTypeOf('number');
    expect(new Set(names.map((name) => MAC_KEY_CODES[name])).size).toBe(names.length);
    expect([MAC_KEY_CODES['Enter'], MAC_KEY_CODES['Escape'], MAC_KEY_CODES['F1'], MAC_KEY_CODES['Up']]).toEqual([0x24, 0x35, 0x7a, 0x7e]);
  });

  it('click through CGEvent: the app and window acted on are raised, then move, down and up go through the HID tap, paced (issue 20, point 2)', async () => {
    const app = sampleApp();
    const test = await harness([app], { focusedPid: 777 });
    test.nut.failing = true;
    await actOn(test, 501);
    test.sleeps.length = 0;
    await test.platform.input.click({ x: 150, y: 80 });
    expect(test.fake.delivered.map(({ tap, event }) => [tap, event.type])).toEqual([
      [0, 5],
      [0, 1],
      [0, 2],
    ]);
    // The fake drops mouse events posted to a pid, as AppKit does: none was.
    expect(test.fake.posted.filter((post) => post.dropped === true)).toEqual([]);
    const raisedAt = test.fake.calls.findIndex((call) => call.name === 'AXUIElementSetAttributeValue' && call.args[1] === 'AXFrontmost');
    expect(raisedAt).toBeGreaterThan(-1);
    expect(raisedAt).toBeLessThan(test.fake.calls.findIndex((call) => call.name === 'CGEventPost'));
    expect(app.windows[0]?.log).toEqual(['set AXMain true', 'perform AXRaise']);
    expect(test.sleeps.filter((ms) => ms === MOUSE_GAP_MS)).toHaveLength(2);
    await test.finish();
  });
});

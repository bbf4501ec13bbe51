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
  it('a click goes through the paced CGEvent driver even while nut-js works (issue 29, point 4)', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.click({ x: 5, y: 5 });
    expect(test.nut.calls).toEqual([]);
    expect(test.platform.input.lastDriver).toBe('cgevent');
    expect(test.fake.posted.map(({ tap, event }) => [tap, event.type])).toEqual([
      [0, 5],
      [0, 1],
      [0, 2],
    ]);
    // Down and up never back to back: nut-js sends them with autoDelayMs 0, and such pairs are dropped.
    expect(test.sleeps).toEqual([MOUSE_GAP_MS, MOUSE_GAP_MS]);
    await test.finish();
  });

  it('nut-js stands in only for a step CGEvent refused before posting anything', async () => {
    const test = await harness([sampleApp()]);
    test.fake.cg.nullFrom = 0;
    await test.platform.input.click({ x: 5, y: 5 });
    expect(test.nut.calls).toEqual(['click']);
    expect(test.platform.input.lastDriver).toBe('nut-js');
    test.fake.cg.nullFrom = undefined;
    // A key name CGEvent has no code for: nothing was posted, so nut-js may try it.
    await test.platform.input.pressKey('nokey', [], 501);
    expect(test.nut.calls).toEqual(['click', 'pressKey nokey']);
    await test.platform.input.pressKey('a', [], 501);
    expect(test.platform.input.lastDriver).toBe('cgevent');
    await test.finish();
  });

  it('a CGEvent failure after an event went out is reported, never redone through nut-js (no duplicated input)', async () => {
    const test = await harness([sampleApp()]);
    // The move and the down go out, the up cannot be made.
    test.fake.cg.nullFrom = 2;
    await expect(test.platform.input.click({ x: 5, y: 5 })).rejects.toThrow('NULL');
    await expect(test.platform.input.typeText('Hello')).rejects.toThrow('NULL');
    expect(test.nut.calls).toEqual([]);
    expect(test.fake.posted.map(({ event }) => event.type)).toEqual([5, 1]);
    await test.finish();
  });

  it('text never goes through nut-js, even when CGEvent cannot post it', async () => {
    const test = await harness([sampleApp()]);
    test.fake.cg.nullFrom = 0;
    await expect(test.platform.input.typeText('Hi')).rejects.toThrow('NULL');
    expect(test.nut.calls).toEqual([]);
    await test.finish();
  });

  it('key: virtual key code with modifier flags, down then up, paced, through the HID tap, never to the pid (issue 29, point 5)', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.pressKey('s', ['meta', 'shift'], 501);
    expect(test.platform.input.lastDriver).toBe('cgevent');
    expect(test.nut.calls).toEqual([]);
    expect(test.fake.posted).toEqual([
      { tap: 0, event: expect.objectContaining({ kind: 'keyboard', keyCode: 0x01, keyDown: true, flags: 0x120000n }) },
      { tap: 0, event: expect.objectContaining({ kind: 'keyboard', keyCode: 0x01, keyDown: false, flags: 0x120000n }) },
    ]);
    // Keys posted to a pid do not reach Chromium and Electron apps (Hammerspoon#1282).
    expect(test.fake.callsOf('CGEventPostToPid')).toEqual([]);
    expect(test.sleeps).toEqual([TYPE_GAP_MS, TYPE_GAP_MS]);
    await test.finish();
  });

  it('a shifted character adds the shift flag', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.pressKey('!', []);
    await actOn(test, 501);
    await test.platform.input.pressKey('escape', ['ctrl', 'alt']);
    expect(test.fake.posted.map(({ tap, pid, event }) => [tap, pid, event.keyCode, event.flags])).toEqual([
      [0, undefined, 0x12, 0x20000n],
      [0, undefined, 0x12, 0x20000n],
      [0, undefined, 0x35, 0xc0000n],
      [0, undefined, 0x35, 0xc0000n],
    ]);
    await test.finish();
  });

  it('key: arrows carry SecondaryFn and NumericPad, Home/End/Page and F-keys SecondaryFn, as a real keyboard sets them', async () => {
    const test = await harness([sampleApp()]);
    for (const key of ['up', 'left', 'home', 'pagedown', 'f5', 'a']) await test.platform.input.pressKey(key, ['meta'], 501);
    const downs = test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.flags);
    expect(downs).toEqual([0xb00000n, 0xb00000n, 0x900000n, 0x900000n, 0x900000n, 0x100000n]);
    await test.finish();
  });

  it('text for an Electron app goes through the HID tap too, never to its pid', async () => {
    const test = await harness([sampleApp()]);
    await actOn(test, 501);
    await test.platform.input.typeText('a');
    expect(test.fake.posted.map(({ tap, pid, event }) => [tap, pid, event.unicode])).toEqual([
      [0, undefined, 'a'],
      [0, undefined, 'a'],
    ]);
    await test.finish();
  });

  it('scroll: CGEventCreateScrollWheelEvent2 in lines at the point, through the HID tap after raising the app acted on', async () => {
    const app = sampleApp();
    const test = await harness([app], { focusedPid: 777 });
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
    expect(test.nut.calls).toEqual([]);
    await test.finish();
  });

  it('type: on a German layout with nut-js working, every character goes through CGEvent with its German key (issue 29, point 3)', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.typeText('@("z');
    // nut-js would type these through US rules: '@' as '"', '(' as ')', and '"' as nothing at all.
    expect(test.nut.calls).toEqual([]);
    const downs = test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => [event.unicode, event.keyCode, event.flags]);
    expect(downs).toEqual([
      ['@', NO_KEY_CODE, 0n],
      ['(', 0x1c, 0x20000n],
      ['"', 0x13, 0x20000n],
      ['z', 0x10, 0n],
    ]);
    await test.finish();
  });

  it('type: stops between two characters once aborted, with the last key already up', async () => {
    const test = await harness([sampleApp()]);
    const controller = new AbortController();
    const record = test.sleeps.push.bind(test.sleeps);
    // The user presses Stop during the gap after the first character's key-up.
    test.sleeps.push = (...gaps: number[]) => {
      if (test.sleeps.length === 1) controller.abort();
      return record(...gaps);
    };
    await expect(test.platform.input.typeText('Hello', controller.signal)).rejects.toThrow();
    expect(test.fake.posted.map(({ event }) => [event.unicode, event.keyDown])).toEqual([
      ['H', true],
      ['H', false],
    ]);
    await test.finish();
  });

  it('type: the layout is read again for every call, so a layout switch between two actions is followed', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.typeText('z');
    test.fake.world.keyboard = { 0x06: ['z', 'Z'], 0x10: ['y', 'Y'] };
    await test.platform.input.typeText('z');
    await test.platform.input.pressKey('z', ['meta']);
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.keyCode)).toEqual([0x10, 0x06, 0x06]);
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
    await test.platform.input.pressKey('z', ['meta'], 501);
    await test.platform.input.pressKey('Y', [], 501);
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => [event.keyCode, event.flags])).toEqual([
      [0x10, 0x100000n],
      [0x06, 0x20000n],
    ]);
    await test.finish();
  });

  it('type: plain ASCII goes through CGEvent too: no character through nut-js on macOS', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.typeText('Hello!');
    expect(test.nut.calls).toEqual([]);
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.unicode)).toEqual([...'Hello!']);
    await test.finish();
  });

  it('drag through CGEvent: down, dragged moves while held, up where the pointer is', async () => {
    const test = await harness([sampleApp()]);
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

  it('a drag whose press went through nut-js continues as dragged events through CGEvent', async () => {
    const test = await harness([sampleApp()]);
    await test.platform.input.moveMouse({ x: 10, y: 10 });
    test.fake.cg.nullFrom = 1;
    await test.platform.input.mouseDown();
    test.fake.cg.nullFrom = undefined;
    await test.platform.input.moveMouse({ x: 20, y: 20 });
    expect(test.nut.calls).toEqual(['mouseDown']);
    expect(test.fake.posted.map(({ event }) => event.type)).toEqual([5, 6]);
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

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isDeskpilotError } from '../../../shared/errors';
import type { UserInputEvent } from '../types';
import { RECORD_MODE } from './event-tap';
import { harness, type Harness } from './testing/setup';
import type { FakeApp } from './testing/fake-world';

const PID = 4242;
const SHIFT = 0x20000n;
const CTRL = 0x40000n;
const OPTION = 0x80000n;
const COMMAND = 0x100000n;
const LEFT_DOWN = 1;
const RIGHT_DOWN = 3;
const KEY_DOWN = 10;

function formApp(): FakeApp {
  return {
    pid: PID,
    name: 'Form',
    windows: [
      {
        role: 'AXWindow',
        title: 'Sign in',
        position: { x: 0, y: 0 },
        size: { width: 400, height: 300 },
        children: [
          { role: 'AXTextField', title: 'User', position: { x: 10, y: 10 }, size: { width: 200, height: 20 } },
          { role: 'AXTextField', subrole: 'AXSecureTextField', title: 'Password', position: { x: 10, y: 40 }, size: { width: 200, height: 20 } },
          { role: 'AXButton', title: 'Sign In', position: { x: 10, y: 80 }, size: { width: 80, height: 24 }, actions: ['AXPress'] },
        ],
      },
    ],
  };
}

interface Listening {
  test: Harness;
  events: UserInputEvent[];
  errors: Error[];
  listener: { close(): void };
}

async function listening(options: { pid?: number } = { pid: PID }): Promise<Listening> {
  const test = await harness([formApp()]);
  const events: UserInputEvent[] = [];
  const errors: Error[] = [];
  const listener = await (test.platform.userInput as NonNullable<typeof test.platform.userInput>).listen(
    options,
    (event) => events.push(event),
    (error) => errors.push(error),
  );
  return { test, events, errors, listener };
}

/** One poll of the tap, then the hit tests it started. */
async function poll(): Promise<void> {
  await vi.advanceTimersByTimeAsync(10);
}

describe('the macOS input source for workflow record (listen-only event tap)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens a listen-only session tap in a run-loop mode of its own, and releases the tap, its source, the mode and the callback on close', async () => {
    const { test, listener } = await listening();
    const [create] = test.fake.callsOf('CGEventTapCreate');
    // kCGSessionEventTap, kCGHeadInsertEventTap, kCGEventTapOptionListenOnly; left, right, other mouse down and key down.
    expect(create?.args.slice(0, 4)).toEqual([1, 0, 1, (1n << 1n) | (1n << 3n) | (1n << 25n) | (1n << 10n)]);
    expect(test.fake.callsOf('CFRunLoopAddSource')[0]?.args[2]).toBe(RECORD_MODE);
    expect(test.fake.callsOf('CGEventTapEnable').map((call) => call.args[1])).toEqual([true]);
    // Pumped for zero seconds, returning after each message: never a blocking run.
    expect(test.fake.callsOf('CFRunLoopRunInMode')[0]?.args).toEqual([RECORD_MODE, 0, true]);
    listener.close();
    listener.close();
    expect(test.fake.callsOf('CGEventTapEnable').map((call) => call.args[1])).toEqual([true, false]);
    expect(test.fake.callsOf('CFRunLoopRemoveSource')).toHaveLength(1);
    expect(test.fake.callsOf('CFMachPortInvalidate')).toHaveLength(1);
    expect(test.fake.taps.liveCallbacks).toBe(0);
    // No more pumping once closed.
    const runs = test.fake.callsOf('CFRunLoopRunInMode').length;
    await poll();
    expect(test.fake.callsOf('CFRunLoopRunInMode')).toHaveLength(runs);
    await test.finish();
  });

  it('gives each click the element the app hit-tests under it, and keys as the key action names them, in order', async () => {
    const { test, events, errors, listener } = await listening();
    test.fake.taps.inject(
      { type: LEFT_DOWN, location: { x: 50, y: 90 } },
      { type: KEY_DOWN, keyCode: 0x00, unicode: 'a' },
      { type: KEY_DOWN, keyCode: 0x00, unicode: 'A', flags: SHIFT },
      { type: KEY_DOWN, keyCode: 0x24, unicode: '\r', flags: COMMAND },
      { type: RIGHT_DOWN, location: { x: 300, y: 250 } },
    );
    await poll();
    expect(events).toEqual([
      { kind: 'button', button: 1, x: 50, y: 90, hit: { role: 'button', bounds: { x: 10, y: 80, width: 80, height: 24 }, secret: false } },
      { kind: 'key', key: 'a', modifiers: [] },
      { kind: 'key', key: 'a', modifiers: ['shift'] },
      { kind: 'key', key: 'return', modifiers: ['meta'] },
      { kind: 'button', button: 3, x: 300, y: 250, hit: { role: 'window', bounds: { x: 0, y: 0, width: 400, height: 300 }, secret: false } },
    ]);
    expect(errors).toEqual([]);
    // Hit-testing is IPC: on koffi's worker pool, with the point as given, and one batched read of the element.
    const hits = test.fake.callsOf('AXUIElementCopyElementAtPosition');
    expect(hits.map((call) => [call.args.slice(1), call.async])).toEqual([
      [[50, 90], true],
      [[300, 250], true],
    ]);
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues').map((call) => call.args[1])).toEqual([
      ['AXRole', 'AXSubrole', 'AXPosition', 'AXSize'],
      ['AXRole', 'AXSubrole', 'AXPosition', 'AXSize'],
    ]);
    // The tapped events belong to the system: the code never released one (the fake's heap would have thrown).
    listener.close();
    await test.finish();
  });

  it('says a password field is secret from its subrole', async () => {
    const { test, events, listener } = await listening();
    test.fake.taps.inject({ type: LEFT_DOWN, location: { x: 20, y: 45 } });
    await poll();
    expect(events[0]).toMatchObject({ kind: 'button', hit: { role: 'textfield', secret: true } });
    listener.close();
    await test.finish();
  });

  it('names shortcut keys by the key, not the character control or option made of it', async () => {
    const { test, events, listener } = await listening();
    test.fake.taps.inject(
      { type: KEY_DOWN, keyCode: 0x08, unicode: '\u0003', flags: CTRL },
      { type: KEY_DOWN, keyCode: 0x01, unicode: 'ß', flags: OPTION },
      { type: KEY_DOWN, keyCode: 0x01, unicode: 's', flags: COMMAND | SHIFT },
      { type: KEY_DOWN, keyCode: 0x60 },
      { type: KEY_DOWN, keyCode: 0x7b, flags: 0xa00000n },
      { type: KEY_DOWN, keyCode: 0x4c, unicode: '\u0003' },
      { type: KEY_DOWN, keyCode: 0x33, unicode: '\u0008' },
      { type: KEY_DOWN, keyCode: 0x0a, unicode: 'é' },
      // A key with no name and no character (a bare function key the table lacks) is not an event.
      { type: KEY_DOWN, keyCode: 0x3f },
    );
    await poll();
    expect(events).toEqual([
      { kind: 'key', key: 'c', modifiers: ['ctrl'] },
      { kind: 'key', key: 's', modifiers: ['alt'] },
      { kind: 'key', key: 's', modifiers: ['shift', 'meta'] },
      { kind: 'key', key: 'f5', modifiers: [] },
      { kind: 'key', key: 'left', modifiers: [] },
      { kind: 'key', key: 'return', modifiers: [] },
      { kind: 'key', key: 'backspace', modifiers: [] },
      { kind: 'key', key: 'é', modifiers: [] },
    ]);
    listener.close();
    await test.finish();
  });

  it('without Input Monitoring asks once and fails with PERMISSION_DENIED saying where to grant it, leaving nothing behind', async () => {
    const test = await harness([formApp()]);
    test.fake.taps.granted = false;
    const listen = (test.platform.userInput as NonNullable<typeof test.platform.userInput>).listen(
      { pid: PID },
      () => undefined,
      () => undefined,
    );
    const error: unknown = await listen.catch((caught: unknown) => caught);
    expect(isDeskpilotError(error) && error.code).toBe('PERMISSION_DENIED');
    expect((error as Error).message).toContain('Privacy & Security → Input Monitoring');
    expect(test.fake.taps.requests).toBe(1);
    expect(test.fake.callsOf('CGEventTapCreate')).toEqual([]);
    expect(test.fake.taps.liveCallbacks).toBe(0);
    await test.finish();
  });

  it('a tap the system refuses (NULL) is PERMISSION_DENIED too, with the mode and callback released', async () => {
    const test = await harness([formApp()]);
    test.fake.taps.refuse = true;
    const error: unknown = await (test.platform.userInput as NonNullable<typeof test.platform.userInput>)
      .listen(
        { pid: PID },
        () => undefined,
        () => undefined,
      )
      .catch((caught: unknown) => caught);
    expect(isDeskpilotError(error) && error.code).toBe('PERMISSION_DENIED');
    expect(test.fake.callsOf('CFMachPortCreateRunLoopSource')).toEqual([]);
    expect(test.fake.taps.liveCallbacks).toBe(0);
    await test.finish();
  });

  it('turns the tap back on when the system disables it for a timeout, and keeps listening', async () => {
    const { test, events, listener } = await listening();
    test.fake.taps.disableNext = true;
    test.fake.taps.inject({ type: KEY_DOWN, keyCode: 0x00, unicode: 'a' });
    await poll();
    expect(test.fake.callsOf('CGEventTapEnable').map((call) => call.args[1])).toEqual([true, true]);
    expect(events).toEqual([{ kind: 'key', key: 'a', modifiers: [] }]);
    listener.close();
    await test.finish();
  });

  it('drains a burst over several polls, at most 64 messages each', async () => {
    const { test, events, listener } = await listening();
    test.fake.taps.inject(...Array.from({ length: 100 }, () => ({ type: KEY_DOWN, keyCode: 0x00, unicode: 'a' })));
    const before = test.fake.callsOf('CFRunLoopRunInMode').length;
    await poll();
    expect(test.fake.callsOf('CFRunLoopRunInMode').length - before).toBe(64);
    expect(events).toHaveLength(64);
    await poll();
    expect(events).toHaveLength(100);
    listener.close();
    await test.finish();
  });

  it('reports a tap that died (its source gone from the mode) and cleans up', async () => {
    const { test, errors, listener } = await listening();
    (test.fake.taps.taps[0] as { invalid: boolean }).invalid = true;
    await poll();
    expect(errors.map((error) => error.message)).toEqual(['the event tap stopped; recording cannot see input any more']);
    expect(test.fake.taps.liveCallbacks).toBe(0);
    listener.close();
    await test.finish();
  });

  it('without a pid hit-tests nothing: clicks carry only their point', async () => {
    const { test, events, listener } = await listening({});
    test.fake.taps.inject({ type: LEFT_DOWN, location: { x: 50, y: 90 } });
    await poll();
    expect(events).toEqual([{ kind: 'button', button: 1, x: 50, y: 90 }]);
    expect(test.fake.callsOf('AXUIElementCreateApplication')).toEqual([]);
    listener.close();
    await test.finish();
  });
});

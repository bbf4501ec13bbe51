/**
 * The workflow recorder's listen-only event tap on a real Mac (issue 31, point 2): the tap is
 * created in the recorder's own run-loop mode, pumped from JS, sees a key event posted through
 * the HID tap, and is torn down; without Input Monitoring the same call is PERMISSION_DENIED
 * with the fix. Skipped off macOS, like the rest of test/macos.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMacNative, type MacNative } from './raw-ax';
import { createDarwinPlatform } from '../../src/core/platform/darwin';
import { EventTap, TapEventType } from '../../src/core/platform/darwin/event-tap';
import type { Platform } from '../../src/core/platform/types';
import { isDeskpilotError } from '../../src/shared/errors';
import { macAccess, sleep } from './mac-session';

const access = await macAccess();
/** kVK_F18: a key no app on the runner binds, so posting it types nothing anywhere. */
const F18 = 0x4f;

describe.skipIf(!access.run)('the recorder event tap on a real Mac', () => {
  let native: MacNative;
  let platform: Platform;

  beforeAll(async () => {
    native = await loadMacNative();
    platform = await createDarwinPlatform({ native });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('creates the tap, sees a posted key, and tears it down; or says Input Monitoring is missing', async () => {
    if (!native.CGPreflightListenEventAccess()) {
      const error: unknown = await platform.userInput
        ?.listen(
          {},
          () => undefined,
          () => undefined,
        )
        .catch((caught: unknown) => caught);
      expect(isDeskpilotError(error) && error.code).toBe('PERMISSION_DENIED');
      expect((error as Error).message).toContain('Input Monitoring');
      return;
    }
    const seen: number[] = [];
    const errors: Error[] = [];
    const tap = EventTap.open(
      native,
      1n << BigInt(TapEventType.KeyDown),
      (type) => seen.push(type),
      (error) => errors.push(error),
    );
    try {
      for (const down of [true, false]) {
        const event = native.CGEventCreateKeyboardEvent(null, F18, down);
        if (event === null) throw new Error('CGEventCreateKeyboardEvent returned NULL');
        native.CGEventPost(0, event);
        native.CFRelease(event);
      }
      for (let round = 0; round < 100 && seen.length === 0; round += 1) {
        expect(tap.pump()).toBe(true);
        await sleep(20);
      }
      expect(seen).toContain(TapEventType.KeyDown);
      expect(errors).toEqual([]);
    } finally {
      tap.close();
    }
    // Through the platform as `workflow record` uses it: opens and closes cleanly.
    const listener = await platform.userInput?.listen(
      {},
      () => undefined,
      (error) => errors.push(error),
    );
    listener?.close();
    expect(errors).toEqual([]);
  });
});

import type { Platform, Point } from '../platform/types';

/** Within this many pixels the pointer is where synthetic input left it: the user has not moved it. */
const SAME_PLACE_PX = 1;

function near(a: Point, b: Point): boolean {
  return Math.abs(a.x - b.x) <= SAME_PLACE_PX && Math.abs(a.y - b.y) <= SAME_PLACE_PX;
}

async function quietly<T>(work: (() => Promise<T>) | undefined): Promise<T | undefined> {
  if (work === undefined) return undefined;
  try {
    return await work();
  } catch {
    // Putting things back is a courtesy: it never turns an action that ran into a failure.
    return undefined;
  }
}

export interface GuardOptions {
  /** Where the input leaves the pointer: a pointer found elsewhere after was moved by the user, and stays. */
  placed?: Point | undefined;
  sleep?: (ms: number) => Promise<void>;
  /** Set to true when the step moved the pointer or made the target app's window active. */
  devices?: { taken: boolean };
}

/** After a step that failed, looks for an activation the window manager carries out late, and the wait between them. */
const LATE_LOOKS = 3;
const LATE_WAIT_MS = 100;

/**
 * Runs synthetic input and then gives the user their devices back: the pointer returns to
 * where it was, and the window that was active before is active again. Neither is put back
 * when the user took it meanwhile: a pointer that is no longer where the input left it
 * (`placed`), or an active window that is neither the one before nor the target app's.
 * A step that failed (a raise the engine saw no answer to) is looked after a little longer:
 * the window manager may carry the raise out after the engine gave up on it, and the user's
 * keys would go to the target app from then on.
 */
export async function guardInput(platform: Platform, pid: number, work: () => Promise<void>, options: GuardOptions = {}): Promise<void> {
  const { placed, devices } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { input, apps } = platform;
  const pointer = await quietly(input.pointer?.bind(input));
  const window = await quietly(apps.activeWindow?.bind(apps));
  let failed = true;
  try {
    await work();
    failed = false;
  } finally {
    if (pointer !== undefined && placed !== undefined && !near(pointer, placed)) {
      const now = await quietly(input.pointer?.bind(input));
      if (now !== undefined && !near(now, pointer) && devices !== undefined) devices.taken = true;
      if (now !== undefined && near(now, placed)) await quietly(() => input.moveMouse(pointer));
    }
    if (window !== undefined && apps.restoreWindow !== undefined) {
      let now = await quietly(apps.activeWindow?.bind(apps));
      for (let look = 0; failed && look < LATE_LOOKS && (now === undefined || now === window); look += 1) {
        await sleep(LATE_WAIT_MS);
        now = await quietly(apps.activeWindow?.bind(apps));
      }
      if (now !== undefined && now !== window && (await ownedBy(platform, now, pid))) {
        if (devices !== undefined) devices.taken = true;
        await quietly(() => apps.restoreWindow?.(window) ?? Promise.resolve());
      }
    }
  }
}

/**
 * Whether the active window is the target app's: the window system's word first (AT-SPI's
 * active state lags behind it in Chromium, or never comes), then the app the platform lists in front.
 */
async function ownedBy(platform: Platform, window: number, pid: number): Promise<boolean> {
  const { apps } = platform;
  if ((await quietly(() => apps.windowPid?.(window) ?? Promise.resolve(undefined))) === pid) return true;
  return (await quietly(() => apps.frontmost()))?.pid === pid;
}

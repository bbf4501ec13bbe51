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

/**
 * Runs synthetic input and then gives the user their devices back: the pointer returns to
 * where it was, and the window that was active before is active again. Neither is put back
 * when the user took it meanwhile: a pointer that is no longer where the input left it
 * (`placed`), or an active window that is neither the one before nor the target app's.
 */
export async function guardInput(platform: Platform, pid: number, work: () => Promise<void>, placed?: Point): Promise<void> {
  const { input, apps } = platform;
  const pointer = await quietly(input.pointer?.bind(input));
  const window = await quietly(apps.activeWindow?.bind(apps));
  try {
    await work();
  } finally {
    if (pointer !== undefined && placed !== undefined && !near(pointer, placed)) {
      const now = await quietly(input.pointer?.bind(input));
      if (now !== undefined && near(now, placed)) await quietly(() => input.moveMouse(pointer));
    }
    if (window !== undefined && apps.restoreWindow !== undefined) {
      const now = await quietly(apps.activeWindow?.bind(apps));
      const front = now === undefined || now === window ? undefined : await quietly(() => apps.frontmost());
      if (front?.pid === pid) await quietly(() => apps.restoreWindow?.(window) ?? Promise.resolve());
    }
  }
}

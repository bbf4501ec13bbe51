import type { CGRect, Pointer } from '../../../../native/macos';
import type { Bounds } from '../../../shared/ui-node';
import type { CfRuntime } from './cf';

/** CGWindowListOption bits (CGWindow.h). */
export const WindowListOption = {
  /** Every window, on screen or not (minimized, hidden, other Spaces). */
  all: 0,
  /** Only windows on screen now, ordered front to back. */
  onScreenOnly: 1 << 0,
  /** Leaves out the desktop picture and the desktop icons' window. */
  excludeDesktopElements: 1 << 4,
} as const;

/** kCGNullWindowID: the list is not relative to a window. */
const NULL_WINDOW_ID = 0;

/** A window as the WindowServer lists it. Bounds are in screen points, top-left origin, like AX positions. */
export interface MacWindow {
  pid: number;
  /** kCGWindowNumber, the CGWindowID that `screencapture -l` takes. */
  number: number;
  /** kCGWindowLayer: 0 for an app's document windows; menus, panels, the Dock and status items sit higher. */
  layer: number;
  alpha: number;
  bounds: Bounds;
}

/** Windows smaller than this on either side are helpers (drag images, tooltips, 1×1 key windows), not what the app shows. */
const MIN_SIDE = 20;

/**
 * Runs `pick` over the window list's dictionaries, front to back for an on-screen list, and
 * keeps what it returns. The list is +1 (Copy) and released here, whatever happens; each
 * dictionary, and every value in it, is borrowed from it and must not outlive the call.
 */
function readWindowList<T>(cf: CfRuntime, option: number, pick: (window: Pointer) => T | undefined, first = false): T[] {
  const list = cf.native.CGWindowListCopyWindowInfo(option, NULL_WINDOW_ID);
  if (list === null) return [];
  return cf.ownedSync(list, (list) => {
    const found: T[] = [];
    for (const window of cf.arrayItems(list)) {
      const value = pick(window);
      if (value === undefined) continue;
      found.push(value);
      if (first) break;
    }
    return found;
  });
}

/** The pids that own a window, on screen or not: apps NSWorkspace's frozen list may lack (workspace.ts). */
export function windowOwnerPids(cf: CfRuntime): number[] {
  return readWindowList(cf, WindowListOption.all, (window) => {
    // Get rule: the number is borrowed from the dictionary, which the list holds.
    const pid = cf.toJs(cf.native.CFDictionaryGetValue(window, cf.native.kCGWindowOwnerPID));
    return typeof pid === 'number' && pid > 0 ? pid : undefined;
  });
}

function describeWindow(cf: CfRuntime, window: Pointer, pid: number): MacWindow | undefined {
  const { native } = cf;
  const number = (key: Pointer): number | undefined => {
    const value = cf.toJs(native.CFDictionaryGetValue(window, key));
    return typeof value === 'number' ? value : undefined;
  };
  // The owner first: most windows belong to other apps, and need nothing more read.
  if (number(native.kCGWindowOwnerPID) !== pid) return undefined;
  const id = number(native.kCGWindowNumber);
  const boundsDictionary = native.CFDictionaryGetValue(window, native.kCGWindowBounds);
  if (id === undefined || boundsDictionary === null) return undefined;
  const rect: Partial<CGRect> = {};
  if (!native.CGRectMakeWithDictionaryRepresentation(boundsDictionary, rect) || rect.origin === undefined || rect.size === undefined) return undefined;
  return {
    pid,
    number: id,
    layer: number(native.kCGWindowLayer) ?? 0,
    alpha: number(native.kCGWindowAlpha) ?? 1,
    bounds: { x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height },
  };
}

/**
 * The app's frontmost window on screen: the first of its windows in the on-screen list (which
 * CGWindow.h orders front to back) that is a document window (layer 0), not fully transparent,
 * and not a tiny helper. Undefined when the app shows none (minimized, hidden, another Space).
 */
export function frontmostWindow(cf: CfRuntime, pid: number): MacWindow | undefined {
  const option = WindowListOption.onScreenOnly | WindowListOption.excludeDesktopElements;
  const [window] = readWindowList(
    cf,
    option,
    (entry) => {
      const window = describeWindow(cf, entry, pid);
      const shown = window !== undefined && window.layer === 0 && window.alpha > 0;
      return shown && window.bounds.width >= MIN_SIDE && window.bounds.height >= MIN_SIDE ? window : undefined;
    },
    true,
  );
  return window;
}

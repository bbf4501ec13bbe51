import type { CGRect, Pointer } from '../../../../native/macos';
import type { Bounds } from '../../../shared/ui-node';
import type { Point, WindowOwner } from '../types';
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

/** A number in a window's dictionary (Get rule: borrowed, like the dictionary). */
function numberIn(cf: CfRuntime, window: Pointer, key: Pointer): number | undefined {
  const value = cf.toJs(cf.native.CFDictionaryGetValue(window, key));
  return typeof value === 'number' ? value : undefined;
}

/** kCGWindowBounds, read with CGRectMakeWithDictionaryRepresentation (which fills a struct, creating nothing). */
function boundsIn(cf: CfRuntime, window: Pointer): Bounds | undefined {
  const boundsDictionary = cf.native.CFDictionaryGetValue(window, cf.native.kCGWindowBounds);
  if (boundsDictionary === null) return undefined;
  const rect: Partial<CGRect> = {};
  if (!cf.native.CGRectMakeWithDictionaryRepresentation(boundsDictionary, rect) || rect.origin === undefined || rect.size === undefined) return undefined;
  return { x: rect.origin.x, y: rect.origin.y, width: rect.size.width, height: rect.size.height };
}

function describeWindow(cf: CfRuntime, window: Pointer, pid: number): MacWindow | undefined {
  const { native } = cf;
  // The owner first: most windows belong to other apps, and need nothing more read.
  if (numberIn(cf, window, native.kCGWindowOwnerPID) !== pid) return undefined;
  const id = numberIn(cf, window, native.kCGWindowNumber);
  const bounds = id === undefined ? undefined : boundsIn(cf, window);
  if (id === undefined || bounds === undefined) return undefined;
  return {
    pid,
    number: id,
    layer: numberIn(cf, window, native.kCGWindowLayer) ?? 0,
    alpha: numberIn(cf, window, native.kCGWindowAlpha) ?? 1,
    bounds,
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

/**
 * Whose window a click at `point` would land in: the first window of the on-screen list (front to
 * back, CGWindow.h) whose kCGWindowBounds hold the point. Bounds are in screen points with a
 * top-left origin, the space AX positions and synthetic clicks use. Every layer counts, because
 * the menu bar, the Dock, status items and other apps' panels sit above layer 0 and take the
 * click themselves; so does the desktop (no ExcludeDesktopElements), which a click on bare
 * screen reaches. Only fully transparent windows (kCGWindowAlpha 0) are passed over: the
 * WindowServer sends them no mouse events. A window that is drawn but ignores the mouse
 * (NSWindow.ignoresMouseEvents) is not marked in the list, so it counts: input is refused there,
 * the safe side. Undefined when no window holds the point.
 * Checked against public readers of the same list: AXorcist's WindowInfoHelper (on-screen list
 * read as dictionaries, bounds through CGRectMakeWithDictionaryRepresentation) and Hammerspoon's
 * hs.window.orderedWindows (front-to-back order of the on-screen list); written from CGWindow.h.
 */
export function windowOwnerAt(cf: CfRuntime, point: Point): WindowOwner | undefined {
  const [owner] = readWindowList(
    cf,
    WindowListOption.onScreenOnly,
    (window): WindowOwner | undefined => {
      if ((numberIn(cf, window, cf.native.kCGWindowAlpha) ?? 1) <= 0) return undefined;
      const bounds = boundsIn(cf, window);
      if (bounds === undefined || !holds(bounds, point)) return undefined;
      const pid = numberIn(cf, window, cf.native.kCGWindowOwnerPID);
      // kCGWindowOwnerPID is a required key; a window without one is still on top, owned by nobody we know.
      return pid !== undefined && pid > 0 ? { pid } : {};
    },
    true,
  );
  return owner;
}

/** Half-open, as a pixel grid is: a point on the right or bottom edge is the next window's. */
function holds(bounds: Bounds, point: Point): boolean {
  return point.x >= bounds.x && point.y >= bounds.y && point.x < bounds.x + bounds.width && point.y < bounds.y + bounds.height;
}

import { execFile } from 'node:child_process';
import type { Bounds } from '../../../shared/ui-node';

export interface Origin {
  x: number;
  y: number;
}

/** An X window with a title, where it is on screen and its size. */
export interface ScreenWindow extends Origin {
  title: string;
  width: number;
  height: number;
}

/**
 * How much larger than the popover widget its surface may be, on one side: GTK 4 draws the
 * popover's arrow (its "tail", 6 to 12 px in the themes seen) outside the widget, toward the
 * widget it points at.
 */
const MAX_TAIL = 24;

/**
 * Titled X windows, every depth, from `xwininfo -root -tree` (x11-utils). Only GTK 4 needs this:
 * its "screen" extents are relative to the surface of its top-level window, and a popover (a
 * drop-down's list, a menu) is a surface of its own, an unmanaged X window. Without xwininfo the
 * list is empty and extents stay window-relative, which is right with no window manager.
 */
export function screenWindows(): Promise<ScreenWindow[]> {
  return new Promise((resolve) => {
    execFile('xwininfo', ['-root', '-tree'], { timeout: 1000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
      resolve(error ? [] : parseWindowList(stdout));
    });
  });
}

/** Screen origins of top-level windows by title, first match winning. */
export async function windowOrigins(): Promise<Map<string, Origin>> {
  return originsByTitle(await screenWindows());
}

export function originsByTitle(windows: readonly ScreenWindow[]): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  for (const { title, x, y } of windows) if (!origins.has(title)) origins.set(title, { x, y });
  return origins;
}

/** Lines look like `0x1a00007 "Title": ("app" "App")  800x600+10+20  +12+44`; the last pair is absolute. */
export function parseWindowList(text: string): ScreenWindow[] {
  const windows: ScreenWindow[] = [];
  for (const match of text.matchAll(/^\s*0x[0-9a-f]+ "((?:[^"\\]|\\.)*)":.*\s(\d+)x(\d+)[+-]-?\d+[+-]-?\d+\s+\+(-?\d+)\+(-?\d+)\s*$/gm)) {
    const [, title, width, height, x, y] = match;
    if (title !== undefined) windows.push({ title, x: Number(x), y: Number(y), width: Number(width), height: Number(height) });
  }
  return windows;
}

export function parseWindowTree(text: string): Map<string, Origin> {
  return originsByTitle(parseWindowList(text));
}

/**
 * The shift that puts a GTK 4 popover's contents on screen. GTK 4 reports a widget inside a
 * popover as if the popover's surface sat on the widget it is attached to (it adds up positions
 * through the widget parents up to the top-level window), but the popover is its own X window,
 * placed below, above or beside that widget. So the shift is the popup window's origin minus the
 * popover's reported origin, plus the arrow where the surface has it before the widget.
 *
 * `popover` is the popover node's reported extents and `windowOrigin` the screen origin of the
 * window GTK counted them from. The popup is the one shown window, other than that window, that
 * is as wide as the popover and at most an arrow taller (or as tall and at most an arrow wider).
 * Undefined when no window fits: a node that is not a popover, or a popover that closed.
 */
export function popoverShift(windows: readonly ScreenWindow[], popover: Bounds, windowOrigin: Origin): Origin | undefined {
  const fits = (window: ScreenWindow): boolean => {
    const wide = window.width - popover.width;
    const tall = window.height - popover.height;
    return (wide === 0 && tall >= 0 && tall <= MAX_TAIL) || (tall === 0 && wide > 0 && wide <= MAX_TAIL);
  };
  const candidates = windows.filter((window) => fits(window) && !(window.x === windowOrigin.x && window.y === windowOrigin.y) && window.width > 1);
  // Two open popups of one size would be a guess: GTK shows one popover chain at a time.
  const popup = candidates.length === 1 ? candidates[0] : undefined;
  if (popup === undefined || popover.width <= 0 || popover.height <= 0) return undefined;
  // Where GTK thinks the popover is, on screen: at the widget it points from.
  const thought = { x: popover.x + windowOrigin.x, y: popover.y + windowOrigin.y };
  // The arrow points back at that widget, so it is on the popup's side facing it.
  const tailX = popup.x > thought.x ? popup.width - popover.width : 0;
  const tailY = popup.y > thought.y ? popup.height - popover.height : 0;
  return { x: popup.x - popover.x + tailX, y: popup.y - popover.y + tailY };
}

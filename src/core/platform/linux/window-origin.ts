import { execFile } from 'node:child_process';

export interface Origin {
  x: number;
  y: number;
}

/**
 * Screen origins of top-level X windows by title, from `xwininfo -root -tree` (x11-utils).
 * Only GTK 4 needs this: its "screen" extents are window-relative. Without xwininfo the
 * origins are unknown and extents stay window-relative, which is right with no window manager.
 */
export function windowOrigins(): Promise<Map<string, Origin>> {
  return new Promise((resolve) => {
    execFile('xwininfo', ['-root', '-tree'], { timeout: 1000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
      resolve(error ? new Map() : parseWindowTree(stdout));
    });
  });
}

/** Lines look like `0x1a00007 "Title": ("app" "App")  800x600+10+20  +12+44`; the last pair is absolute. */
export function parseWindowTree(text: string): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  for (const match of text.matchAll(/^\s*0x[0-9a-f]+ "((?:[^"\\]|\\.)*)":.*\s\d+x\d+[+-]-?\d+[+-]-?\d+\s+\+(-?\d+)\+(-?\d+)\s*$/gm)) {
    const [, title, x, y] = match;
    if (title !== undefined && !origins.has(title)) origins.set(title, { x: Number(x), y: Number(y) });
  }
  return origins;
}

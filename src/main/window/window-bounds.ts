export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/**
 * Where the saved window goes now: wholly inside the display it mostly overlaps, or, when that
 * display is gone (an unplugged monitor), centred on the primary one (`workAreas[0]`). Never
 * off-screen, never larger than the display. Undefined when nothing was saved.
 */
export function visibleBounds(saved: Rect | undefined, workAreas: readonly Rect[]): Rect | undefined {
  const primary = workAreas[0];
  if (saved === undefined || primary === undefined) return saved;
  const best = workAreas.reduce<{ area: Rect; overlap: number } | undefined>((found, area) => {
    const amount = overlap(saved, area);
    return amount > (found?.overlap ?? 0) ? { area, overlap: amount } : found;
  }, undefined);
  const area = best?.area ?? primary;
  const width = Math.min(saved.width, area.width);
  const height = Math.min(saved.height, area.height);
  if (best === undefined) {
    return { x: Math.round(area.x + (area.width - width) / 2), y: Math.round(area.y + (area.height - height) / 2), width, height };
  }
  const clamp = (value: number, low: number, high: number): number => Math.min(Math.max(value, low), high);
  return { x: clamp(saved.x, area.x, area.x + area.width - width), y: clamp(saved.y, area.y, area.y + area.height - height), width, height };
}

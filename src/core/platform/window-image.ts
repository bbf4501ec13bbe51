import type { Bounds } from '../../shared/ui-node';
import type { WindowImage } from './types';

/** The part two rectangles share; zero wide or high when they do not meet. */
export function intersect(a: Bounds, b: Bounds): Bounds {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - x), height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - y) };
}

/**
 * The pixels of a window image that a screen rectangle (in points) touches, as [left, top,
 * right, bottom) pixel indices cut to the image; undefined when it misses the image. Rounded
 * outward: a pixel only partly inside the rectangle is in, so nothing of it survives a paint.
 */
export function pixelRect(image: WindowImage, area: Bounds): { left: number; top: number; right: number; bottom: number } | undefined {
  const scale = image.scale ?? 1;
  const left = Math.max(0, Math.floor((area.x - image.x) * scale));
  const top = Math.max(0, Math.floor((area.y - image.y) * scale));
  const right = Math.min(image.width, Math.ceil((area.x + area.width - image.x) * scale));
  const bottom = Math.min(image.height, Math.ceil((area.y + area.height - image.y) * scale));
  return right > left && bottom > top ? { left, top, right, bottom } : undefined;
}

/**
 * Paints a screen rectangle opaque black in a window image, whose top-left sits at image.x,
 * image.y. The rectangle is in points, like the tree's bounds; on a Retina capture (scale 2)
 * it covers twice as many pixels each way.
 */
export function paintBlack(image: WindowImage, area: Bounds): void {
  const part = pixelRect(image, area);
  if (part === undefined) return;
  for (let row = part.top; row < part.bottom; row += 1) {
    const start = (row * image.width + part.left) * 4;
    const end = (row * image.width + part.right) * 4;
    image.data.fill(0, start, end);
    for (let alpha = start + 3; alpha < end; alpha += 4) image.data[alpha] = 255;
  }
}

import type { Bounds } from '../../shared/ui-node';
import type { WindowImage } from './types';

export function intersect(a: Bounds, b: Bounds): Bounds | undefined {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : undefined;
}

/** Paints a screen rectangle opaque black in a window image (whose top-left sits at image.x, image.y). */
export function paintBlack(image: WindowImage, area: Bounds): void {
  const part = intersect({ x: image.x, y: image.y, width: image.width, height: image.height }, area);
  if (part === undefined) return;
  for (let row = part.y - image.y; row < part.y - image.y + part.height; row += 1) {
    const start = (row * image.width + (part.x - image.x)) * 4;
    image.data.fill(0, start, start + part.width * 4);
    for (let alpha = start + 3; alpha < start + part.width * 4; alpha += 4) image.data[alpha] = 255;
  }
}

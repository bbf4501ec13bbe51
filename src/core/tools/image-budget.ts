import { encodePng, type RgbaImage } from '../image/png';
import { fitPixels } from '../image/scale';

/**
 * Most bytes of one image as it travels (base64 PNG). The official MCP client drops its
 * connection for good on a message over 10 MB, and a noisy 4-megapixel window PNG is more than
 * that; vision models take about 5 MB an image. Pixels alone do not bound bytes: noise and
 * gradients compress badly.
 */
export const MAX_IMAGE_BASE64_BYTES = 4 * 1024 * 1024;

/** Each try shrinks to what the last size suggests, and a little more; eight tries reach any size from any start. */
const MAX_TRIES = 8;

/**
 * The image, already fitted to its pixel budget, encoded as PNG and scaled down further
 * until its base64 fits `maxBytes`. `scale` is against the image given.
 */
export function encodeWithin(image: RgbaImage, maxBytes = MAX_IMAGE_BASE64_BYTES): { image: RgbaImage; base64: string; scale: number } {
  let current = image;
  let base64 = encodePng(current).toString('base64');
  for (let tries = 0; base64.length > maxBytes && tries < MAX_TRIES && current.width * current.height > 1; tries += 1) {
    // PNG size goes roughly with the pixel count; aim 10% under the budget.
    const pixels = Math.max(1, Math.floor(current.width * current.height * (maxBytes / base64.length) * 0.9));
    current = fitPixels(current, pixels);
    base64 = encodePng(current).toString('base64');
  }
  return { image: current, base64, scale: current.width / image.width };
}

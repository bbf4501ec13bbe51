import type { RgbaImage } from './png';

/**
 * The image shrunk, by averaging whole blocks of pixels, until it has at most `maxPixels`:
 * models bill images by size, and UI text stays readable at half size. Never enlarged.
 */
export function fitPixels(image: RgbaImage, maxPixels: number): RgbaImage & { scale: number } {
  const pixels = image.width * image.height;
  if (pixels <= maxPixels) return { ...image, scale: 1 };
  const scale = Math.sqrt(maxPixels / pixels);
  const width = Math.max(1, Math.floor(image.width * scale));
  const height = Math.max(1, Math.floor(image.height * scale));
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    const top = Math.floor((y * image.height) / height);
    const bottom = Math.max(top + 1, Math.floor(((y + 1) * image.height) / height));
    for (let x = 0; x < width; x += 1) {
      const left = Math.floor((x * image.width) / width);
      const right = Math.max(left + 1, Math.floor(((x + 1) * image.width) / width));
      const sums = [0, 0, 0, 0];
      for (let row = top; row < bottom; row += 1) {
        for (let column = left; column < right; column += 1) {
          const at = (row * image.width + column) * 4;
          for (let channel = 0; channel < 4; channel += 1) sums[channel] = (sums[channel] as number) + (image.data[at + channel] as number);
        }
      }
      const count = (bottom - top) * (right - left);
      const out = (y * width + x) * 4;
      for (let channel = 0; channel < 4; channel += 1) data[out + channel] = Math.round((sums[channel] as number) / count);
    }
  }
  return { width, height, data, scale: width / image.width };
}

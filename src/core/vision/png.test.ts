import { describe, expect, it } from 'vitest';
import { decodePng, encodePng } from './png';
import { fitPixels } from './scale';

function gradient(width: number, height: number): { width: number; height: number; data: Buffer } {
  const data = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) data.set([index % 256, (index >> 8) % 256, 128, 255], index * 4);
  return { width, height, data };
}

describe('png', () => {
  it('writes a PNG that reads back pixel for pixel', () => {
    const image = gradient(37, 21);
    const png = encodePng(image);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(decodePng(png)).toEqual(image);
  });
});

describe('fitPixels', () => {
  it('leaves a small image alone and shrinks a big one under the budget, averaging blocks', () => {
    const small = gradient(10, 10);
    expect(fitPixels(small, 1000)).toEqual({ ...small, scale: 1 });
    const big = {
      width: 4,
      height: 2,
      data: Buffer.from([
        0, 0, 0, 255, 100, 100, 100, 255, 10, 10, 10, 255, 30, 30, 30, 255, 0, 0, 0, 255, 100, 100, 100, 255, 10, 10, 10, 255, 30, 30, 30, 255,
      ]),
    };
    const half = fitPixels(big, 2);
    expect(half).toMatchObject({ width: 2, height: 1, scale: 0.5 });
    expect([...half.data]).toEqual([50, 50, 50, 255, 20, 20, 20, 255]);
    const window = fitPixels(gradient(1366, 741), 1_000_000);
    expect(window.width * window.height).toBeLessThanOrEqual(1_000_000);
    expect(window.width / window.height).toBeCloseTo(1366 / 741, 1);
  });
});

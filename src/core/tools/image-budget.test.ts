import { describe, expect, it } from 'vitest';
import { encodeWithin } from './image-budget';

/** Pseudo-random pixels (a fixed seed): noise, which PNG cannot compress. */
function noise(width: number, height: number): { width: number; height: number; data: Buffer } {
  const data = Buffer.alloc(width * height * 4);
  let state = 12345;
  for (let index = 0; index < data.length; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    data[index] = state >>> 24;
  }
  return { width, height, data };
}

describe('encodeWithin', () => {
  it('scales a noisy image down until its base64 PNG fits the byte budget', () => {
    const image = noise(1000, 1000);
    const { base64, image: out, scale } = encodeWithin(image, 400_000);
    expect(base64.length).toBeLessThanOrEqual(400_000);
    expect(out.width).toBeLessThan(1000);
    expect(scale).toBeCloseTo(out.width / 1000);
    // It is still a PNG of the size it says.
    const png = Buffer.from(base64, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(out.width);
  });

  it('leaves an image that fits as it is', () => {
    const flat = { width: 800, height: 600, data: Buffer.alloc(800 * 600 * 4, 200) };
    const { image, scale } = encodeWithin(flat, 400_000);
    expect(image).toBe(flat);
    expect(scale).toBe(1);
  });
});

import { crc32, deflateSync } from 'node:zlib';
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

/** A PNG chunk: length, type, data, CRC over type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** The PNG specification's predictors, written out on their own here to filter rows the way an encoder does. */
function predict(filter: number, left: number, up: number, upLeft: number): number {
  if (filter === 1) return left;
  if (filter === 2) return up;
  if (filter === 3) return Math.floor((left + up) / 2);
  if (filter === 4) {
    const p = left + up - upLeft;
    const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
    return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
  }
  return 0;
}

/**
 * A PNG as other encoders write one: each row with its own filter, the given colour type
 * (2 RGB, 6 RGBA) at 8 bits, colour chunks before the data, and the data split over two IDATs.
 */
function filteredPng(
  width: number,
  height: number,
  bytes: number[],
  colour: 2 | 6,
  filters: number[],
  header: Partial<{ depth: number; interlace: number }> = {},
) {
  const channels = colour === 6 ? 4 : 3;
  const stride = width * channels;
  const raw: number[] = [];
  for (let row = 0; row < height; row += 1) {
    const filter = filters[row % filters.length] as number;
    raw.push(filter);
    for (let index = 0; index < stride; index += 1) {
      const at = row * stride + index;
      const left = index >= channels ? (bytes[at - channels] as number) : 0;
      const up = row > 0 ? (bytes[at - stride] as number) : 0;
      const upLeft = row > 0 && index >= channels ? (bytes[at - stride - channels] as number) : 0;
      raw.push(((bytes[at] as number) - predict(filter, left, up, upLeft) + 256) & 0xff);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(header.depth ?? 8, 8);
  ihdr.writeUInt8(colour, 9);
  ihdr.writeUInt8(header.interlace ?? 0, 12);
  const data = deflateSync(Buffer.from(raw));
  const half = Math.floor(data.length / 2);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    // sRGB (perceptual), an iCCP whose profile is not a real one, and pHYs at 144 dpi: all skipped.
    chunk('sRGB', Buffer.from([0])),
    chunk('iCCP', Buffer.concat([Buffer.from('Display P3\0\0', 'latin1'), deflateSync(Buffer.from('not a profile'))])),
    chunk('pHYs', Buffer.from([0, 0, 0x16, 0x25, 0, 0, 0x16, 0x25, 1])),
    chunk('IDAT', data.subarray(0, half)),
    chunk('IDAT', data.subarray(half)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Bytes that make every predictor matter: they wrap past 255 and differ from left, above and above-left. */
function noisy(count: number): number[] {
  return Array.from({ length: count }, (_unused, index) => (index * 73 + ((index * index) % 251) * 7 + 200) % 256);
}

describe('decodePng of filtered rows', () => {
  it('reads RGBA rows filtered none, sub, up, average and Paeth, skipping sRGB, iCCP and pHYs', () => {
    const [width, height] = [7, 10];
    const bytes = noisy(width * height * 4);
    const image = decodePng(filteredPng(width, height, bytes, 6, [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]));
    expect(image.width).toBe(width);
    expect(image.height).toBe(height);
    expect([...image.data]).toEqual(bytes);
  });

  it('reads RGB (colour type 2) as opaque RGBA, with Paeth on the first row and the first column', () => {
    const [width, height] = [5, 6];
    const bytes = noisy(width * height * 3);
    const image = decodePng(filteredPng(width, height, bytes, 2, [4, 3, 1, 2, 4, 0]));
    const expected: number[] = [];
    for (let pixel = 0; pixel < width * height; pixel += 1) expected.push(...bytes.slice(pixel * 3, pixel * 3 + 3), 255);
    expect([...image.data]).toEqual(expected);
  });

  it('refuses what it does not read, saying why', () => {
    const rgb = noisy(4 * 3);
    expect(() => decodePng(filteredPng(2, 2, rgb, 2, [0], { depth: 16 }))).toThrow(/colour type 2 at 16 bits.*only 8-bit RGB \(type 2\) and RGBA \(type 6\)/);
    const palette = filteredPng(2, 2, rgb, 2, [0]);
    // Colour type 3 (palette) in the header: byte 9 of IHDR's data, after the signature and the chunk's length and type.
    palette[8 + 8 + 9] = 3;
    expect(() => decodePng(palette)).toThrow(/colour type 3 at 8 bits/);
    expect(() => decodePng(filteredPng(2, 2, rgb, 2, [0], { interlace: 1 }))).toThrow(/interlaced/);
    expect(() => decodePng(filteredPng(2, 2, rgb, 2, [5]))).toThrow(/filter type 5/);
    expect(() => decodePng(filteredPng(2, 2, rgb, 2, [0]).subarray(0, 40))).toThrow(/truncated/);
    expect(() => decodePng(Buffer.from('GIF89a'))).toThrow(/not a PNG/);
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

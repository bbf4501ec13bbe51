import { inflateSync } from 'node:zlib';

export interface Png {
  width: number;
  height: number;
  colorType: number;
  /** RGBA, 8 bits a channel, row after row. */
  rgba: Buffer;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Enough of PNG for icons: 8-bit grey, grey+alpha, RGB or RGBA, not interlaced. */
export function readPng(file: Buffer): Png {
  if (file.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = -1;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      colorType = body[9] ?? -1;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const channels = CHANNELS[colorType];
  if (channels === undefined) throw new Error(`colour type ${colorType} is not supported`);
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      const predicted = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : 0;
      pixels[y * stride + x] = (value + predicted) & 0xff;
    }
  }
  const rgba = Buffer.alloc(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    const source = pixels.subarray(index * channels, (index + 1) * channels);
    const grey = channels <= 2;
    rgba[index * 4] = source[0] ?? 0;
    rgba[index * 4 + 1] = (grey ? source[0] : source[1]) ?? 0;
    rgba[index * 4 + 2] = (grey ? source[0] : source[2]) ?? 0;
    rgba[index * 4 + 3] = channels === 2 ? (source[1] ?? 255) : channels === 4 ? (source[3] ?? 255) : 255;
  }
  return { width, height, colorType, rgba };
}

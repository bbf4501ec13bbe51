import { crc32, deflateSync, inflateSync } from 'node:zlib';

/** PNG in and out for RGBA images, on node:zlib: captures go to the model and to files as PNG. */

export interface RgbaImage {
  width: number;
  height: number;
  /** width × height × 4 bytes, rows top to bottom. */
  data: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const RGBA_COLOUR = 6;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, tail]);
}

export function encodePng(image: RgbaImage): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(RGBA_COLOUR, 9);
  const stride = image.width * 4;
  // Filter 0 (none) on every row: UI pixels compress well enough, and encoding stays a few ms.
  const raw = Buffer.alloc((stride + 1) * image.height);
  for (let row = 0; row < image.height; row += 1) image.data.copy(raw, row * (stride + 1) + 1, row * stride, (row + 1) * stride);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', Buffer.alloc(0))]);
}

/** Bytes a pixel for the colour types read: RGB (2) and RGBA (6), 8 bits a channel. */
const CHANNELS: Record<number, number> = { 2: 3, 6: 4 };

/** The Paeth predictor (PNG specification, 9.4): whichever of left, up and up-left is closest to left + up - up-left. */
function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/**
 * Undoes the row filters in place (PNG specification, 9.2): each row starts with its filter
 * type, 0 none, 1 sub, 2 up, 3 average, 4 Paeth; each byte is predicted from the byte one
 * pixel to its left and the byte above it. Returns the rows without their filter bytes.
 */
function unfilter(raw: Buffer, stride: number, height: number, pixelBytes: number): Buffer {
  const rows = Buffer.alloc(stride * height);
  for (let row = 0; row < height; row += 1) {
    const filter = raw[row * (stride + 1)] as number;
    const from = row * (stride + 1) + 1;
    const at = row * stride;
    // The row above; the first row has zeros above it.
    const up = (index: number): number => (row > 0 ? (rows[at - stride + index] as number) : 0);
    const left = (index: number): number => (index >= pixelBytes ? (rows[at + index - pixelBytes] as number) : 0);
    // One loop per filter, so a window-sized image does not branch on every byte.
    switch (filter) {
      case 0:
        raw.copy(rows, at, from, from + stride);
        break;
      case 1:
        for (let index = 0; index < stride; index += 1) rows[at + index] = ((raw[from + index] as number) + left(index)) & 0xff;
        break;
      case 2:
        for (let index = 0; index < stride; index += 1) rows[at + index] = ((raw[from + index] as number) + up(index)) & 0xff;
        break;
      case 3:
        for (let index = 0; index < stride; index += 1) rows[at + index] = ((raw[from + index] as number) + ((left(index) + up(index)) >> 1)) & 0xff;
        break;
      case 4:
        for (let index = 0; index < stride; index += 1) {
          const upLeft = index >= pixelBytes ? up(index - pixelBytes) : 0;
          rows[at + index] = ((raw[from + index] as number) + paeth(left(index), up(index), upLeft)) & 0xff;
        }
        break;
      default:
        throw new Error(`PNG row ${row} has filter type ${filter}; only 0 to 4 exist`);
    }
  }
  return rows;
}

/**
 * Reads an 8-bit RGB or RGBA PNG, not interlaced, with any row filters: what encodePng writes
 * and what macOS's screencapture writes. Other chunks (sRGB, iCCP, pHYs, text) are skipped, so
 * the pixels stay in the file's colour space. Palette, grey, 16-bit and interlaced images are
 * refused with the reason.
 */
export function decodePng(png: Buffer): RgbaImage {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  let header: Buffer | undefined;
  const parts: Buffer[] = [];
  while (offset < png.length) {
    if (offset + 12 > png.length) throw new Error('truncated PNG: a chunk header runs past the end');
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (offset + 12 + length > png.length) throw new Error(`truncated PNG: the ${type} chunk runs past the end`);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') header = data;
    else if (type === 'IDAT') parts.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (header === undefined || header.length < 13) throw new Error('PNG without an image header (IHDR)');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const depth = header.readUInt8(8);
  const colour = header.readUInt8(9);
  const channels = CHANNELS[colour];
  if (depth !== 8 || channels === undefined) {
    throw new Error(`PNG colour type ${colour} at ${depth} bits is not read: only 8-bit RGB (type 2) and RGBA (type 6) are`);
  }
  if (header.readUInt8(12) !== 0) throw new Error('interlaced PNGs are not read');
  if (parts.length === 0) throw new Error('PNG without image data (IDAT)');
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(parts));
  if (raw.length < (stride + 1) * height) throw new Error(`PNG image data is short: ${raw.length} bytes for ${width}×${height}`);
  const rows = unfilter(raw, stride, height, channels);
  if (channels === 4) return { width, height, data: rows };
  const pixels = Buffer.alloc(width * height * 4);
  for (let source = 0, target = 0; source < rows.length; source += 3, target += 4) {
    pixels[target] = rows[source] as number;
    pixels[target + 1] = rows[source + 1] as number;
    pixels[target + 2] = rows[source + 2] as number;
    pixels[target + 3] = 255;
  }
  return { width, height, data: pixels };
}

import { existsSync, mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createScheduler, createWorker, OEM, PSM, type Line, type Scheduler } from 'tesseract.js';
import type { Bounds } from '../../shared/ui-node';
import type { RgbaImage } from '../image/png';

/**
 * Text on screen, read on this machine with tesseract.js: the WebAssembly build of Tesseract,
 * whose English and Portuguese models ship as npm packages (@tesseract.js-data/eng, /por), so
 * nothing is downloaded at run time. Chosen over a PaddleOCR ONNX package because it needs no
 * native runtime and its LSTM models read UI fonts at 1x (see bench:vision).
 */

export type OcrLanguage = 'eng' | 'por';

export interface OcrWord {
  text: string;
  /** Screen coordinates, like the tree's bounds. */
  bounds: Bounds;
  /** 0 to 1. */
  confidence: number;
}

export interface OcrLine extends OcrWord {
  words: OcrWord[];
}

/** The LSTM-only integer models: the smallest and the most accurate of the packaged ones. */
const MODEL = '4.0.0_best_int';
/** Words read with less confidence than this are noise (icons, borders), not text. */
const MIN_CONFIDENCE = 0.5;
/** A lone character is kept only when read surely: a caret or a border line reads as "I" or "|". */
const MIN_SINGLE_CONFIDENCE = 0.8;

/** A line of one character is noise unless read surely; any longer line of sure-enough words is text. */
function isText(text: string, confidence: number): boolean {
  return text.length > 1 || confidence >= MIN_SINGLE_CONFIDENCE;
}
/** Rows are cut into bands read side by side; bands overlap so a line cut by one is whole in the next. */
const BAND_OVERLAP = 48;

const require = createRequire(import.meta.url);

/**
 * Where a language's model is on disk. In the packaged app the models are unpacked beside
 * app.asar (the Tesseract worker reads them with plain fs, which cannot look inside the archive).
 */
function modelPath(language: OcrLanguage): string {
  const folder = path.join(path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), MODEL);
  return folder.replace(/app\.asar(?=[\\/])/, 'app.asar.unpacked');
}

/** Tesseract reads several languages from one folder: the packaged models, linked side by side. */
function modelFolder(languages: readonly OcrLanguage[]): string {
  if (languages.length === 1) return modelPath(languages[0] as OcrLanguage);
  const folder = path.join(os.tmpdir(), `deskpilot-ocr-${MODEL}-${languages.join('+')}`);
  mkdirSync(folder, { recursive: true });
  for (const language of languages) {
    const target = path.join(folder, `${language}.traineddata.gz`);
    const source = path.join(modelPath(language), `${language}.traineddata.gz`);
    // A link left by another install (or an app that moved) is made again.
    if (existsSync(target) && realpathSync(target) === realpathSync(source)) continue;
    rmSync(target, { force: true });
    symlinkSync(source, target);
  }
  return folder;
}

/** Side of the square tiles whose commonest grey tells a dark background from a light one. */
const TILE = 16;
/** A tile whose commonest grey is darker than this has light text on it, if any (a button, a dark bar). */
const DARK_BACKGROUND = 110;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Luminance, one byte a pixel. */
function greyLevels(image: RgbaImage): Uint8Array {
  const grey = new Uint8Array(image.width * image.height);
  for (let index = 0; index < grey.length; index += 1) {
    const pixel = index * 4;
    grey[index] = ((image.data[pixel] as number) * 299 + (image.data[pixel + 1] as number) * 587 + (image.data[pixel + 2] as number) * 114) / 1000;
  }
  return grey;
}

/** A binary PGM of part of the grey image (what Tesseract reads fastest), inverted if asked. */
function pgm(grey: Uint8Array, width: number, part: Rect, invert: boolean): Buffer {
  const body = Buffer.alloc(part.width * part.height);
  for (let row = 0; row < part.height; row += 1) {
    const from = (part.y + row) * width + part.x;
    for (let column = 0; column < part.width; column += 1) {
      const level = grey[from + column] as number;
      body[row * part.width + column] = invert ? 255 - level : level;
    }
  }
  return Buffer.concat([Buffer.from(`P5\n${part.width} ${part.height}\n255\n`, 'latin1'), body]);
}

/**
 * The boxes of dark background, from tiles whose commonest grey is dark, joined where they
 * touch. Tesseract misses light text on them (white on a blue button) even with its own
 * inverted pass, so each is read again, inverted, on its own.
 */
export function darkRegions(grey: Uint8Array, width: number, height: number): Rect[] {
  const columns = Math.ceil(width / TILE);
  const rows = Math.ceil(height / TILE);
  const dark = new Uint8Array(columns * rows);
  const counts = new Uint16Array(256);
  for (let tile = 0; tile < dark.length; tile += 1) {
    counts.fill(0);
    const left = (tile % columns) * TILE;
    const top = Math.floor(tile / columns) * TILE;
    let mode = 0;
    for (let y = top; y < Math.min(height, top + TILE); y += 1) {
      for (let x = left; x < Math.min(width, left + TILE); x += 1) {
        const level = grey[y * width + x] as number;
        counts[level] = (counts[level] as number) + 1;
        if ((counts[level] as number) > (counts[mode] as number)) mode = level;
      }
    }
    dark[tile] = mode < DARK_BACKGROUND ? 1 : 0;
  }
  const regions: Rect[] = [];
  for (let start = 0; start < dark.length; start += 1) {
    if (dark[start] !== 1) continue;
    let [minX, minY, maxX, maxY] = [columns, rows, 0, 0];
    const stack = [start];
    dark[start] = 2;
    while (stack.length > 0) {
      const tile = stack.pop() as number;
      const [x, y] = [tile % columns, Math.floor(tile / columns)];
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
      for (const next of [x > 0 ? tile - 1 : -1, x < columns - 1 ? tile + 1 : -1, tile - columns, tile + columns]) {
        if (next >= 0 && next < dark.length && dark[next] === 1) {
          dark[next] = 2;
          stack.push(next);
        }
      }
    }
    const box = {
      x: minX * TILE,
      y: minY * TILE,
      width: Math.min(width, (maxX + 1) * TILE) - minX * TILE,
      height: Math.min(height, (maxY + 1) * TILE) - minY * TILE,
    };
    // A lone dark tile is an icon or a border, not a field of text.
    if (box.width > TILE || box.height > TILE) regions.push(box);
  }
  return regions;
}

/** Where a recognized part of an image sits: the image's top-left on the screen, the part's pixel offset in it, and pixels per point. */
export interface Placement {
  origin: { x: number; y: number };
  part: { x: number; y: number };
  scale: number;
}

/** A Tesseract box (pixels of the part it read) on the screen, in points: a Retina capture's pixels are halved. */
function boundsOf(box: { x0: number; y0: number; x1: number; y1: number }, place: Placement): Bounds {
  const { origin, part, scale } = place;
  return {
    x: origin.x + (part.x + box.x0) / scale,
    y: origin.y + (part.y + box.y0) / scale,
    width: (box.x1 - box.x0) / scale,
    height: (box.y1 - box.y0) / scale,
  };
}

/** Tesseract's lines as OcrLines in screen points: sure-enough words only, each line boxed around its words. */
export function linesOf(lines: readonly Line[], place: Placement): OcrLine[] {
  const found: OcrLine[] = [];
  for (const line of lines) {
    const words = line.words
      .filter((word) => word.text.trim() !== '' && word.confidence / 100 >= MIN_CONFIDENCE)
      .map((word) => ({ text: word.text.trim(), bounds: boundsOf(word.bbox, place), confidence: word.confidence / 100 }));
    if (words.length === 0 || !isText(words.map((word) => word.text).join(' '), Math.min(...words.map((word) => word.confidence)))) continue;
    const left = Math.min(...words.map((word) => word.bounds.x));
    const top = Math.min(...words.map((word) => word.bounds.y));
    const right = Math.max(...words.map((word) => word.bounds.x + word.bounds.width));
    const bottom = Math.max(...words.map((word) => word.bounds.y + word.bounds.height));
    found.push({
      text: words.map((word) => word.text).join(' '),
      bounds: { x: left, y: top, width: right - left, height: bottom - top },
      confidence: words.reduce((sum, word) => sum + word.confidence, 0) / words.length,
      words,
    });
  }
  return found;
}

/** A line read twice, once in each of two overlapping bands, is kept once: the one read whole. */
function withoutRepeats(lines: OcrLine[]): OcrLine[] {
  const kept: OcrLine[] = [];
  for (const line of [...lines].sort((a, b) => b.words.length - a.words.length)) {
    const centre = { x: line.bounds.x + line.bounds.width / 2, y: line.bounds.y + line.bounds.height / 2 };
    const repeat = kept.some(
      (other) =>
        centre.x >= other.bounds.x &&
        centre.x <= other.bounds.x + other.bounds.width &&
        centre.y >= other.bounds.y &&
        centre.y <= other.bounds.y + other.bounds.height,
    );
    if (!repeat) kept.push(line);
  }
  return kept.sort((a, b) => a.bounds.y - b.bounds.y || a.bounds.x - b.bounds.x);
}

/**
 * One Tesseract worker a core (two at most here), started on first use and kept: a worker
 * takes about a second to load its model. A window is cut into as many bands as workers.
 */
export class OcrEngine {
  private scheduler: Promise<{ scheduler: Scheduler; workers: number }> | undefined;

  constructor(
    private readonly languages: readonly OcrLanguage[] = ['eng'],
    private readonly workers = Math.max(1, Math.min(2, os.availableParallelism())),
  ) {}

  private start(): Promise<{ scheduler: Scheduler; workers: number }> {
    this.scheduler ??= (async () => {
      const scheduler = createScheduler();
      const langPath = modelFolder(this.languages);
      const started = await Promise.all(
        Array.from({ length: this.workers }, () => createWorker([...this.languages], OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' })),
      );
      for (const worker of started) {
        // Sparse text: UI labels are scattered, not paragraphs. Screen pixels are 96 dpi, so Tesseract need not
        // guess; and light text on dark is read from darkRegions, so its own inverted pass is skipped.
        await worker.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '96', tessedit_do_invert: '0' } as never);
        scheduler.addWorker(worker);
      }
      return { scheduler, workers: started.length };
    })();
    this.scheduler.catch(() => (this.scheduler = undefined));
    return this.scheduler;
  }

  /**
   * The text lines of an image whose top-left sits at `origin` on the screen, top to bottom, in
   * points: an image with a `scale` (pixels per point, 2 on a Retina display) has its boxes divided by it.
   */
  async read(image: RgbaImage & { scale?: number }, origin: { x: number; y: number } = { x: 0, y: 0 }): Promise<OcrLine[]> {
    const { scheduler, workers } = await this.start();
    const grey = greyLevels(image);
    const recognize = async (part: Rect, invert: boolean): Promise<OcrLine[]> => {
      const { data } = await scheduler.addJob('recognize', pgm(grey, image.width, part, invert), {}, { blocks: true, text: false });
      const lines = (data.blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines));
      return linesOf(lines, { origin, part, scale: image.scale ?? 1 });
    };
    const bands = image.height < 200 ? 1 : workers;
    const step = Math.ceil(image.height / bands);
    const jobs = Array.from({ length: bands }, (_unused, band) => {
      const top = Math.max(0, band * step - (band === 0 ? 0 : BAND_OVERLAP));
      return recognize({ x: 0, y: top, width: image.width, height: Math.min(image.height, (band + 1) * step) - top }, false);
    });
    jobs.push(...darkRegions(grey, image.width, image.height).map((region) => recognize(region, true)));
    return withoutRepeats((await Promise.all(jobs)).flat());
  }

  async close(): Promise<void> {
    const started = this.scheduler;
    this.scheduler = undefined;
    if (started !== undefined) await (await started).scheduler.terminate();
  }
}

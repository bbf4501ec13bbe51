import type { Line } from 'tesseract.js';
import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { WindowImage } from '../platform/types';
import type { RawNode } from '../ui/ids';
import { walk } from '../ui/tree-index';
import { blackOutSecrets } from './capture';
import { linesOf, type OcrLine } from './ocr';
import { withScreenText } from './screen-text';

/** A white window image at `scale` pixels a point, its top-left at x, y on the screen (points). */
function window(x: number, y: number, width: number, height: number, scale: number): WindowImage {
  return { x, y, width: width * scale, height: height * scale, data: Buffer.alloc(width * scale * height * scale * 4, 255), scale };
}

function isBlack(image: WindowImage, x: number, y: number): boolean {
  const at = (y * image.width + x) * 4;
  return [...image.data.subarray(at, at + 4)].join() === '0,0,0,255';
}

/** Pixels in [left, right) × [top, bottom) that are not black. */
function notBlack(image: WindowImage, left: number, top: number, right: number, bottom: number): number {
  let count = 0;
  for (let y = top; y < bottom; y += 1) for (let x = left; x < right; x += 1) if (!isBlack(image, x, y)) count += 1;
  return count;
}

function field(name: string, bounds: RawNode['bounds'], secret: boolean): RawNode {
  return {
    ref: name,
    role: 'textfield',
    platformRole: 'AXTextField',
    name,
    states: { enabled: true, focused: false, ...(secret ? { secret: true } : {}) },
    actions: [],
    ...(bounds ? { bounds } : {}),
  };
}

describe('a Retina capture (two pixels a point)', () => {
  it('has every pixel of a secret field black, its bounds in points rounded outward, and nothing else', () => {
    const image = window(100, 50, 400, 300, 2);
    const tree: RawNode = {
      ref: 'window',
      role: 'window',
      platformRole: 'AXWindow',
      name: 'Sign in',
      states: { enabled: true, focused: true },
      actions: [],
      bounds: { x: 100, y: 50, width: 400, height: 300 },
      children: [
        field('Name', { x: 130, y: 80, width: 200, height: 24 }, false),
        field('Password', { x: 130.25, y: 120.5, width: 199.5, height: 24.25 }, true),
        // Half outside the window: the part inside is painted, nothing is written past the image.
        field('PIN', { x: 450, y: 330, width: 100, height: 40 }, true),
      ],
    };
    blackOutSecrets(image, tree);
    // Password: points 130.25–329.75 × 120.5–144.75 → pixels 60–459 × 141–189.
    expect(notBlack(image, 60, 141, 460, 190)).toBe(0);
    expect([isBlack(image, 59, 150), isBlack(image, 460, 150), isBlack(image, 100, 140), isBlack(image, 100, 190)]).toEqual([false, false, false, false]);
    // PIN: points 450–500 × 330–350 inside the window → pixels 700–799 × 560–599.
    expect(notBlack(image, 700, 560, 800, 600)).toBe(0);
    expect(isBlack(image, 699, 580)).toBe(false);
    // The plain field is left alone.
    expect(notBlack(image, 60, 60, 460, 108)).toBe(48 * 400);
    expect(image.data.length).toBe(800 * 600 * 4);
  });

  it('turns OCR boxes (pixels of the band read) back into screen points', () => {
    const word = (text: string, x0: number, y0: number, x1: number, y1: number) => ({ text, confidence: 95, bbox: { x0, y0, x1, y1 } });
    const lines = [{ words: [word('Submit', 40, 20, 140, 52), word('now', 160, 20, 220, 52)] }] as unknown as Line[];
    // A band that starts 400 pixels down a window whose top-left is at 100, 50 on the screen.
    const [line] = linesOf(lines, { origin: { x: 100, y: 50 }, part: { x: 0, y: 400 }, scale: 2 });
    expect(line).toMatchObject({ text: 'Submit now', bounds: { x: 120, y: 260, width: 90, height: 16 } });
    expect(line?.words[1]?.bounds).toEqual({ x: 180, y: 260, width: 30, height: 16 });
    // At one pixel a point, the same boxes are the same numbers.
    expect(linesOf(lines, { origin: { x: 100, y: 50 }, part: { x: 0, y: 400 }, scale: 1 })[0]?.bounds).toEqual({ x: 140, y: 470, width: 180, height: 32 });
  });

  it.each([2, 3])('at %i pixels a point, screen text paints the fixture password black, merges OCR lines in points and clicks them there', async (scale) => {
    const platform = new FakePlatform();
    Object.assign(platform, { screen: { captureWindow: () => Promise.resolve(window(0, 0, 800, 600, scale)) } });
    const seen: WindowImage[] = [];
    const line = (text: string, x: number, y: number): OcrLine => {
      const bounds = { x, y, width: 60, height: 16 };
      return { text, bounds, confidence: 0.95, words: [{ text, bounds, confidence: 0.95 }] };
    };
    const vision = withScreenText(platform, {
      reader: {
        read: (image) => {
          seen.push(image);
          return Promise.resolve([line('Submit', 600, 500)]);
        },
      },
    });
    const reading = await vision.vision?.read(FIXTURE_PID);
    const image = reading?.image as WindowImage;
    // The fixture's password field is at 20,180 200×28 points.
    expect(notBlack(image, 20 * scale, 180 * scale, 220 * scale, 208 * scale)).toBe(0);
    expect(isBlack(image, 220 * scale, 190 * scale)).toBe(false);
    expect(seen[0]?.scale).toBe(scale);
    // The whole window in points is a container, not text covering the line, at any scale.
    const engine = new ActionEngine({ platform: vision, clock: new FakeClock() });
    const ocr = [...walk((await engine.observe(FIXTURE_PID)).root)].filter((node: UiNode) => node.source === 'ocr' && node.role === 'text');
    expect(ocr.map((node) => [node.name, node.bounds])).toEqual([['Submit', { x: 600, y: 500, width: 60, height: 16 }]]);
    await engine.run(FIXTURE_PID, { action: 'click', id: ocr[0]?.id as string });
    expect(platform.inputLog).toContain('click 630,508');
  });
});

/**
 * npm run bench:vision — screen text on the canvas fixture (1280×800, text painted at 11 to
 * 22 px, the sizes UIs use): how much of the painted text OCR reads back, and what a capture,
 * a read and a cached re-read of the unchanged window cost. The same image is read with each
 * packaged Tesseract model side by side, so the choice between them is measured here.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withVision } from '../src/core/screen-text';
import { OcrEngine, type OcrLine } from '../src/core/screen-text/ocr';
import { startDesktop } from '../test/linux/desktop';
import { median, timed } from './stats';

const CANVAS_APP = fileURLToPath(new URL('../resources/canvas-fixture/deskpilot-canvas.py', import.meta.url));
const RUNS = 5;

interface Truth {
  lines: string[];
  buttons: string[];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_unused, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Each painted line against the read line closest to it: characters right, and words found anywhere. */
function score(truth: Truth, lines: readonly OcrLine[]): { charAccuracy: number; wordRecall: number } {
  const expected = [...truth.lines, ...truth.buttons];
  const read = lines.map((line) => line.text);
  let errors = 0;
  let characters = 0;
  for (const text of expected) {
    const best = Math.min(...read.map((candidate) => editDistance(text, candidate)), text.length);
    errors += best;
    characters += text.length;
  }
  const words = expected.flatMap((text) => text.split(' '));
  const seen = new Set(read.flatMap((text) => text.split(' ')));
  return { charAccuracy: 1 - errors / characters, wordRecall: words.filter((word) => seen.has(word)).length / words.length };
}

async function main(): Promise<void> {
  const truth = JSON.parse(execFileSync('/usr/bin/python3', [CANVAS_APP, '--truth'], { encoding: 'utf8' })) as Truth;
  const desktop = await startDesktop();
  const platform = withVision(desktop.platform);
  try {
    const { pid } = await desktop.launch('/usr/bin/python3', [CANVAS_APP]);
    const vision = platform.vision as NonNullable<typeof platform.vision>;
    const capture = median(await timed(RUNS, () => vision.capture(pid)));
    const image = await vision.capture(pid);
    console.log(`window ${image.width}×${image.height}; ${RUNS} runs each, medians; the first read (model load) left out`);
    let chosen: { ocr: number; charAccuracy: number; wordRecall: number } | undefined;
    for (const languages of [['eng'], ['por', 'eng']] as const) {
      const engine = new OcrEngine([...languages]);
      const lines = await engine.read(image, image);
      const ocr = median(await timed(RUNS, () => engine.read(image, image)));
      const { charAccuracy, wordRecall } = score(truth, lines);
      console.log(`${languages.join('+').padEnd(8)} ocr=${ocr.toFixed(0)} ms  char_accuracy=${charAccuracy.toFixed(3)}  word_recall=${wordRecall.toFixed(3)}`);
      chosen ??= { ocr, charAccuracy, wordRecall };
      await engine.close();
    }
    // The screen text the tree gets: a first read, then re-reads of the unchanged window.
    await vision.read(pid);
    const cached = median(await timed(RUNS, () => vision.read(pid)));
    console.log(
      `capture_ms=${capture.toFixed(1)} (secrets blacked out, tree read with bounds); cached re-read of the unchanged window=${cached.toFixed(1)} ms`,
    );
    const { charAccuracy, wordRecall, ocr } = chosen as NonNullable<typeof chosen>;
    console.log(
      `vision: char_accuracy=${charAccuracy.toFixed(3)} word_recall=${wordRecall.toFixed(3)} capture_ms=${capture.toFixed(1)} ocr_ms=${ocr.toFixed(0)} cached_ms=${cached.toFixed(1)}`,
    );
  } finally {
    await platform.close();
    await desktop.stop();
  }
}

await main();

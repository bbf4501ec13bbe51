import { describe, expect, it } from 'vitest';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { OcrLine } from '../screen-text/ocr';
import { withScreenText } from '../screen-text/screen-text';
import { parseWorkflow } from './load';
import { runWorkflow } from './runner';

function line(text: string, x: number, y: number): OcrLine {
  const bounds = { x, y, width: 60, height: 16 };
  return { text, bounds, confidence: 0.95, words: [{ text, bounds, confidence: 0.95 }] };
}

/** The fixture desktop with window captures, where OCR reads the given lines off the pixels. */
function setup(lines: OcrLine[]) {
  const platform = new FakePlatform();
  Object.assign(platform, {
    screen: { captureWindow: () => Promise.resolve({ x: 0, y: 0, width: 800, height: 600, data: Buffer.alloc(800 * 600 * 4, 255) }) },
  });
  const vision = withScreenText(platform, { reader: { read: () => Promise.resolve(lines) } });
  const clock = new FakeClock();
  return { platform, vision, clock, engine: new ActionEngine({ platform: vision, clock }) };
}

const clickSubmit = parseWorkflow(
  JSON.stringify({
    format: 'deskpilot-workflow',
    version: 1,
    name: 'submit',
    app: {},
    steps: [{ action: 'click', target: { role: 'button', name: 'Submit…' }, expect: {} }],
  }),
);

describe('the OCR rung', () => {
  it('clicks a label the tree does not carry, found by its text on screen, once the tree had its wait', async () => {
    const { platform, vision, clock, engine } = setup([line('Submit', 600, 500)]);
    const report = await runWorkflow(clickSubmit, { engine, platform: vision, pid: FIXTURE_PID, values: {}, clock, waitMs: 300 });
    expect(report.status).toBe('completed');
    expect(report.steps[0]?.rung).toBe('ocr');
    // The click, then the pointer given back where it was (nobody moved it meanwhile).
    expect(platform.inputLog).toEqual(['click 630,508', 'move 0,0']);
  });

  it('halts when the text shows twice', async () => {
    const { platform, vision, clock, engine } = setup([line('Submit', 600, 500), line('Submit', 600, 540)]);
    const report = await runWorkflow(clickSubmit, { engine, platform: vision, pid: FIXTURE_PID, values: {}, clock, waitMs: 300 });
    expect(report.halt).toMatchObject({
      code: 'ambiguous',
      candidates: [expect.objectContaining({ reason: expect.stringContaining('more than once') }), expect.anything()],
    });
    expect(platform.inputLog).toEqual([]);
  });
});

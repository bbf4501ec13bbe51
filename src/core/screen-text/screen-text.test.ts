import { describe, expect, it } from 'vitest';
import { UnsupportedOperationError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { WindowImage } from '../platform/types';
import { walk } from '../ui/tree-index';
import type { OcrLine } from './ocr';
import { withScreenText } from './screen-text';

/** The fixture's 800×600 window as white pixels; `paint` marks a repaint. */
function whiteWindow(shade = 255): WindowImage {
  return { x: 0, y: 0, width: 800, height: 600, data: Buffer.alloc(800 * 600 * 4, shade) };
}

function line(text: string, x: number, y: number): OcrLine {
  const bounds = { x, y, width: 60, height: 16 };
  return { text, bounds, confidence: 0.95, words: [{ text, bounds, confidence: 0.95 }] };
}

function setup(lines: () => OcrLine[]) {
  const platform = new FakePlatform();
  let shade = 255;
  const captures: WindowImage[] = [];
  Object.assign(platform, {
    screen: {
      captureWindow: () => {
        const image = whiteWindow(shade);
        captures.push(image);
        return Promise.resolve(image);
      },
    },
  });
  const reads: WindowImage[] = [];
  const vision = withScreenText(platform, {
    reader: {
      read: (image) => {
        reads.push(image);
        return Promise.resolve(lines());
      },
    },
  });
  const engine = new ActionEngine({ platform: vision, clock: new FakeClock() });
  return { platform, vision, engine, captures, reads, repaint: () => (shade -= 1) };
}

const engineOf = (platform: Parameters<typeof withScreenText>[0]): ActionEngine => new ActionEngine({ platform, clock: new FakeClock() });

const ocrNodes = (root: UiNode): UiNode[] => [...walk(root)].filter((node) => node.source === 'ocr' && node.role === 'text');

describe('screen text', () => {
  it('is not read for an app with a good tree until a screenshot asks', async () => {
    const { vision, engine, reads } = setup(() => [line('Submit', 600, 500)]);
    expect(ocrNodes((await engine.observe(FIXTURE_PID, { fresh: true })).root)).toEqual([]);
    expect(reads).toHaveLength(0);
    await vision.vision?.read(FIXTURE_PID);
    expect(ocrNodes((await engine.observe(FIXTURE_PID)).root).map((node) => node.name)).toEqual(['Submit']);
  });

  it('adds only text the tree has no named node for, under the window, marked as read from the screen', async () => {
    // "Clicked 0 times" sits on the fixture's button: the tree says it already.
    const { vision, engine } = setup(() => [line('Clicked 0 times', 25, 25), line('Submit', 600, 500)]);
    await vision.vision?.read(FIXTURE_PID);
    const { root } = await engine.observe(FIXTURE_PID);
    const [submit] = ocrNodes(root);
    expect(submit).toMatchObject({ name: 'Submit', bounds: { x: 600, y: 500, width: 60, height: 16 }, source: 'ocr' });
    // Under one unnamed group at the end of the window, which the compact text does not print.
    expect(root.children?.at(-1)).toMatchObject({ role: 'group', name: '', source: 'ocr', children: [submit] });
  });

  it('paints every password field black before the image leaves, and never reads the same pixels twice', async () => {
    const { vision, reads, captures } = setup(() => []);
    const image = await vision.vision?.capture(FIXTURE_PID);
    const pixel = (x: number, y: number) => [...(image as WindowImage).data.subarray((y * 800 + x) * 4, (y * 800 + x) * 4 + 4)];
    // The fixture's password field is at 20,180 200×28.
    expect(pixel(30, 190)).toEqual([0, 0, 0, 255]);
    expect(pixel(219, 207)).toEqual([0, 0, 0, 255]);
    expect(pixel(221, 190)).toEqual([255, 255, 255, 255]);
    await vision.vision?.read(FIXTURE_PID);
    await vision.vision?.read(FIXTURE_PID);
    expect(captures).toHaveLength(3);
    expect(reads).toHaveLength(1);
  });

  it('clicks text read off the screen at its centre, and the verify sees the repaint', async () => {
    let text = 'Submit';
    const { platform, vision, engine, repaint } = setup(() => [line(text, 600, 500)]);
    await vision.vision?.read(FIXTURE_PID);
    const id = ocrNodes((await engine.observe(FIXTURE_PID)).root)[0]?.id as string;
    // The app answers the click by painting "Sent" where "Submit" was.
    const click = platform.input.click.bind(platform.input);
    platform.input.click = async (point) => {
      await click(point);
      text = 'Sent';
      repaint();
    };
    const clicked = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(clicked).toMatchObject({ success: true, method: 'input', changed: true, changes: ['name: "Submit" → "Sent"'] });
    expect(platform.inputLog).toContain('click 630,508');
    expect(ocrNodes((await engine.observe(FIXTURE_PID)).root).map((node) => node.name)).toEqual(['Sent']);
  });

  it('counts a repaint that changed no text as a change', async () => {
    const { platform, vision, engine, repaint } = setup(() => [line('Play', 600, 500)]);
    await vision.vision?.read(FIXTURE_PID);
    const id = ocrNodes((await engine.observe(FIXTURE_PID)).root)[0]?.id as string;
    const click = platform.input.click.bind(platform.input);
    platform.input.click = async (point) => {
      await click(point);
      repaint();
    };
    expect(await engine.run(FIXTURE_PID, { action: 'click', id })).toMatchObject({ success: true, changed: true, changes: ['the app changed elsewhere'] });
  });

  it('a window that went between the tree read and the capture leaves the tree read whole, never UI_NOT_AVAILABLE', async () => {
    const { platform, vision, engine } = setup(() => [line('Play', 600, 500)]);
    await vision.vision?.read(FIXTURE_PID);
    const window = await platform.accessibility.getTree(FIXTURE_PID);
    let reads = 0;
    // The first read still lists the window; by the time of the capture (and after) it is gone.
    platform.accessibility.getTree = () => Promise.resolve({ ...window, role: 'application', children: (reads += 1) === 1 ? [window] : [] });
    Object.assign(platform, {
      screen: { captureWindow: () => Promise.reject(new UnsupportedOperationError('pid 4242 has no window on this display to capture')) },
    });
    expect((await engine.observe(FIXTURE_PID, { fresh: true })).root.children).toHaveLength(1);
    // An app with no window left is not captured at all.
    expect((await engine.observe(FIXTURE_PID, { fresh: true })).root.children).toEqual([]);
  });

  it('passes Selection and event waits through to the backend, so every program gets them', async () => {
    const { platform, vision } = setup(() => []);
    const calls: string[] = [];
    platform.accessibility.select = (ref) => {
      calls.push(`select ${String(ref)}`);
      return Promise.resolve(true);
    };
    platform.accessibility.nextEvent = (pid) => {
      calls.push(`event ${pid}`);
      return Promise.resolve();
    };
    const wrapped = withScreenText(platform, { reader: { read: () => Promise.resolve([]) } }).accessibility;
    const node = (await engineOf(vision).observe(FIXTURE_PID)).root;
    expect(await wrapped.select?.('4242/item:1', node, '4242/list')).toBe(true);
    await wrapped.nextEvent?.(FIXTURE_PID, new AbortController().signal);
    expect(calls).toEqual(['select 4242/item:1', `event ${FIXTURE_PID}`]);
  });

  it('refuses to set a value on screen text, pointing at click and type', async () => {
    const { vision, engine } = setup(() => [line('Name', 600, 500)]);
    await vision.vision?.read(FIXTURE_PID);
    const id = ocrNodes((await engine.observe(FIXTURE_PID)).root)[0]?.id as string;
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 'x' });
    expect(result.error).toMatchObject({ code: 'NOT_SETTABLE' });
    expect(result.error?.message).toMatch(/click it, then type/);
  });

  it('passes on every backend method it does not change, including ones added after it was written', async () => {
    const { platform } = setup(() => []);
    Object.assign(platform.accessibility, {
      shortcuts: () => Promise.resolve([{ key: 'o', modifiers: ['ctrl'], path: ['File', 'Open'] }]),
      someFutureMethod: () => 'still here',
    });
    const wrapped = withScreenText(platform, { reader: { read: () => Promise.resolve([]) } }).accessibility;
    expect(await wrapped.shortcuts?.(FIXTURE_PID)).toHaveLength(1);
    expect((wrapped as unknown as { someFutureMethod(): string }).someFutureMethod()).toBe('still here');
  });

  it('passes accessibility-first typing and keys on to the backend, never for screen text (issue 32)', async () => {
    const { platform } = setup(() => [line('Name', 600, 500)]);
    const calls: string[] = [];
    Object.assign(platform.accessibility, {
      insertText: (ref: unknown) => (calls.push(`type ${String((ref as { ocr?: boolean }).ocr ?? false)}`), Promise.resolve(true)),
      keyAction: (_pid: number, key: string, _modifiers: unknown, ref?: unknown) => (
        calls.push(`key ${key} ${ref === undefined ? 'focused' : 'ref'}`),
        Promise.resolve(true)
      ),
    });
    const wrapped = withScreenText(platform, { reader: { read: () => Promise.resolve([]) } }).accessibility;
    const ocr = { ocr: true };
    expect(await wrapped.insertText?.({}, {} as UiNode, 'x')).toBe(true);
    expect(await wrapped.insertText?.(ocr, {} as UiNode, 'x')).toBe(false);
    await wrapped.keyAction?.(FIXTURE_PID, 'return', [], {}, {} as UiNode);
    await wrapped.keyAction?.(FIXTURE_PID, 'return', [], ocr, {} as UiNode);
    expect(calls).toEqual(['type false', 'key return ref', 'key return focused']);
  });
});

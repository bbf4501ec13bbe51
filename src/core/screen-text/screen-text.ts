import { NotSettableError, UnsupportedOperationError } from '../../shared/errors';
import type { Bounds } from '../../shared/ui-node';
import type { RawNode } from '../ui/ids';
import { walk } from '../ui/tree-index';
import { overlay } from '../platform/overlay';
import type { AccessibilityBackend, Platform, ScreenVision, TreeOptions, WindowImage } from '../platform/types';
import { blackOutSecrets } from './capture';
import type { OcrLine } from './ocr';

/** What reads text off an image: the OcrEngine, or a fake in tests. */
export interface TextReader {
  /** Lines in screen points: boxes found in the image's pixels are divided by its `scale` (2 on a Retina display). */
  read(image: WindowImage, origin: { x: number; y: number }): Promise<OcrLine[]>;
  close?(): Promise<void>;
}

/** The handle an OCR node carries: acting on it means synthetic input at its place. */
interface OcrRef {
  ocr: true;
  bounds: Bounds;
}

function isOcrRef(ref: unknown): ref is OcrRef {
  return typeof ref === 'object' && ref !== null && (ref as { ocr?: unknown }).ocr === true;
}

/** How long an app stays read by OCR after a screenshot asked for it, or its tree last had no text. */
const WATCH_MS = 5 * 60_000;
/** Fewer named nodes than this in a whole app, and its tree says nothing useful: OCR fills in. */
const TEXTLESS_BELOW = 3;
/** A named node covering more than this share of the window is a container, not the text at a point. */
const CONTAINER_SHARE = 0.25;
const WINDOW_ROLES = new Set(['window', 'dialog']);

export interface ScreenTextOptions {
  reader: TextReader;
  /** Deskpilot's own processes: their windows never show in a capture. */
  hidePids?: () => readonly number[];
  now?: () => number;
}

interface Reading {
  /** Counts repaints: a new number each time the pixels differ from the last capture. */
  version: number;
  image: WindowImage;
  lines: OcrLine[];
  tree: RawNode;
}

/** Whether the tree names fewer than TEXTLESS_BELOW things. Runs on every read of every app, so it stops as soon as it knows. */
function textless(root: RawNode): boolean {
  let count = 0;
  for (const node of walk(root)) {
    if (node.role !== 'application' && node.role !== 'window' && node.name.trim() !== '') count += 1;
    if (count >= TEXTLESS_BELOW) return false;
  }
  return true;
}

function contains(outer: Bounds, x: number, y: number): boolean {
  return x >= outer.x && x <= outer.x + outer.width && y >= outer.y && y <= outer.y + outer.height;
}

function samePixels(a: WindowImage, b: WindowImage): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height && (a.scale ?? 1) === (b.scale ?? 1) && a.data.equals(b.data);
}

/** The window an image shows, in screen points like the tree: a Retina capture has two pixels a point. */
function windowBounds(image: WindowImage): Bounds {
  const scale = image.scale ?? 1;
  return { x: image.x, y: image.y, width: image.width / scale, height: image.height / scale };
}

/**
 * Text read off the screen for apps whose tree shows too little: canvas and game UIs, remote
 * desktops, images, Java apps without the bridge. An app is read this way after a screenshot
 * asked for it, or by itself when its whole tree names fewer than three things. Its OCR lines
 * then join the tree under the window, as `text` nodes with `source: 'ocr'`, wherever the
 * tree has no named node at their place; apps with a good tree never pay for OCR. A fresh
 * read captures again, and reads the text again only when the pixels changed.
 */
export class ScreenText implements ScreenVision {
  private readonly watched = new Map<number, number>();
  private readonly readings = new Map<number, Reading>();

  constructor(
    private readonly platform: Platform,
    private readonly options: ScreenTextOptions,
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  get available(): boolean {
    return this.platform.screen !== undefined;
  }

  /**
   * The app's window as pixels, with every secret field and Deskpilot's own windows painted
   * black before the image leaves this class. The tree is read fresh, with bounds, for that.
   */
  async capture(pid: number): Promise<WindowImage> {
    return (await this.captureWithTree(pid)).image;
  }

  private async captureWithTree(pid: number): Promise<{ image: WindowImage; tree: RawNode }> {
    const screen = this.platform.screen;
    if (screen === undefined) throw new UnsupportedOperationError(`window capture is not available on ${this.platform.name}`);
    // Side by side: the two take about as long, and a re-read of an unchanged window is both and nothing more.
    const [tree, image] = await Promise.all([
      this.platform.accessibility.getTree(pid, { bounds: 'all', fresh: true }),
      screen.captureWindow(pid, { hidePids: this.options.hidePids?.() ?? [] }),
    ]);
    blackOutSecrets(image, tree);
    return { image, tree };
  }

  /** Captures the window and reads its text; the same pixels are not read twice. Keeps OCR on for the app. */
  async read(pid: number): Promise<Reading> {
    this.watched.set(pid, this.now() + WATCH_MS);
    const { image, tree } = await this.captureWithTree(pid);
    const last = this.readings.get(pid);
    const same = last !== undefined && samePixels(last.image, image);
    const lines = same ? last.lines : await this.options.reader.read(image, { x: image.x, y: image.y });
    const reading = { version: same ? last.version : (last?.version ?? 0) + 1, image, lines, tree };
    this.readings.set(pid, reading);
    return reading;
  }

  private watching(pid: number, raw: RawNode): boolean {
    if ((this.watched.get(pid) ?? 0) > this.now()) return true;
    if (!this.available || !textless(raw)) return false;
    this.watched.set(pid, this.now() + WATCH_MS);
    return true;
  }

  /** The tree with the app's screen text under its window, where the app is read by OCR. */
  async merge(pid: number, raw: RawNode, fresh: boolean): Promise<RawNode> {
    // An app with no window left (its dialog just closed, it is quitting) has nothing to capture:
    // the tree says so itself, and a capture would only fail.
    if (!WINDOW_ROLES.has(raw.role) && (raw.children ?? []).length === 0) return raw;
    if (!this.watching(pid, raw)) return raw;
    let reading: Reading;
    try {
      reading = fresh || !this.readings.has(pid) ? await this.read(pid) : (this.readings.get(pid) as Reading);
    } catch (error) {
      // The window went between the tree read and the capture: the tree is still the answer.
      // Screen text fills a tree in; its absence never fails a read (it may be an action's verify).
      if (error instanceof UnsupportedOperationError && !(await this.hasWindow(pid))) return raw;
      throw error;
    }
    const group = this.textGroup(reading);
    // A backend may root the tree at the window itself, or at the app with its windows below.
    if (WINDOW_ROLES.has(raw.role)) return { ...raw, children: [...(raw.children ?? []), group] };
    const windows = raw.children ?? [];
    // The window the capture shows: the one at the image's top-left in the bounded tree, matched by name.
    const shown = (reading.tree.children ?? []).find((child) => child.bounds !== undefined && contains(child.bounds, reading.image.x + 1, reading.image.y + 1));
    const index = Math.max(
      0,
      windows.findIndex((child) => child.name === (shown ?? reading.tree.children?.[0])?.name),
    );
    const window = windows[index];
    if (window === undefined) return raw;
    const merged = { ...window, children: [...(window.children ?? []), group] };
    return { ...raw, children: windows.map((child, at) => (at === index ? merged : child)) };
  }

  /** Whether the app still shows a window, by a fresh read of its tree. */
  private async hasWindow(pid: number): Promise<boolean> {
    const tree = await this.platform.accessibility.getTree(pid, { fresh: true }).catch(() => undefined);
    return tree !== undefined && (WINDOW_ROLES.has(tree.role) || (tree.children ?? []).length > 0);
  }

  /** The lines the tree lacks, under one unnamed group (which the compact text does not print). */
  private textGroup(reading: Reading): RawNode {
    const lines = this.uncovered(reading);
    return {
      ref: { ocr: true, bounds: windowBounds(reading.image) } satisfies OcrRef,
      role: 'group',
      platformRole: 'ocr:screen',
      name: '',
      // Not printed; it makes a repaint that changed no text still count as a change when an action is verified.
      description: `repaint ${reading.version}`,
      states: { enabled: true, focused: false },
      actions: [],
      source: 'ocr',
      children: lines.map((line) => ({
        ref: { ocr: true, bounds: line.bounds } satisfies OcrRef,
        role: 'text',
        platformRole: 'ocr:line',
        name: line.text,
        states: { enabled: true, focused: false },
        bounds: line.bounds,
        actions: ['press'],
        source: 'ocr',
      })),
    };
  }

  /** Lines whose place no named, non-container node of the tree covers: the tree says those itself. */
  private uncovered(reading: Reading): OcrLine[] {
    const window = windowBounds(reading.image);
    // In points, like the nodes' bounds it is compared with.
    const area = window.width * window.height;
    const named = [...walk(reading.tree)].filter(
      (node) =>
        node.name.trim() !== '' &&
        node.states.visible !== false &&
        node.bounds !== undefined &&
        node.bounds.width * node.bounds.height < area * CONTAINER_SHARE,
    );
    return reading.lines.filter((line) => {
      const x = line.bounds.x + line.bounds.width / 2;
      const y = line.bounds.y + line.bounds.height / 2;
      return !named.some((node) => contains(node.bounds as Bounds, x, y));
    });
  }

  async close(): Promise<void> {
    await this.options.reader.close?.();
  }
}

/**
 * The accessibility backend with screen text merged in. OCR nodes have no native path: press
 * and focus say so, and the engine clicks at their centre; their value cannot be set.
 */
function withOcrNodes(inner: AccessibilityBackend, text: ScreenText): AccessibilityBackend {
  // Only the methods that must treat an OCR node differently are named; overlay passes every
  // other one, present or future, straight to the backend.
  const overrides: Partial<AccessibilityBackend> = {
    getTree: async (pid: number, options: TreeOptions = {}) => text.merge(pid, await inner.getTree(pid, options), options.fresh === true),
    press: (ref, node) => (isOcrRef(ref) ? Promise.resolve(false) : inner.press(ref, node)),
    focus: (ref, node) => (isOcrRef(ref) ? Promise.resolve(false) : inner.focus(ref, node)),
    setValue: (ref, node, value) => {
      if (isOcrRef(ref)) return Promise.reject(new NotSettableError(`"${node.name}" is text read off the screen; click it, then type`));
      return inner.setValue(ref, node, value);
    },
    bounds: (ref, node) => (isOcrRef(ref) ? Promise.resolve(ref.bounds) : (inner.bounds?.(ref, node) ?? Promise.resolve(node.bounds))),
    // OCR nodes are read again with their whole window, when the engine verifies.
    readSubtree: (ref, node, maxNodes) =>
      isOcrRef(ref) || inner.readSubtree === undefined
        ? Promise.reject(new UnsupportedOperationError('screen text is read with its whole window'))
        : inner.readSubtree(ref, node, maxNodes),
    insertText: (ref, node, value) => (isOcrRef(ref) ? Promise.resolve(false) : (inner.insertText?.(ref, node, value) ?? Promise.resolve(false))),
  };
  // A key for an OCR node goes to the app's focused element: the node has no element of its own.
  if (inner.keyAction !== undefined) {
    overrides.keyAction = (pid, key, modifiers, ref, node) =>
      (isOcrRef(ref) ? inner.keyAction?.(pid, key, modifiers) : inner.keyAction?.(pid, key, modifiers, ref, node)) ?? Promise.resolve(false);
  }
  const { select, isDefault } = inner;
  if (isDefault !== undefined) overrides.isDefault = (ref, node) => (isOcrRef(ref) ? Promise.resolve(false) : isDefault.call(inner, ref, node));
  if (select !== undefined) overrides.select = (ref, node, container) => (isOcrRef(ref) ? Promise.resolve(false) : select.call(inner, ref, node, container));
  return overlay(inner, overrides);
}

/**
 * The platform with screen text: `vision` for the screenshot tool, the tree with OCR nodes for
 * everything else. Every other member (traits, apps, input, one added tomorrow) reads through
 * overlay to the platform, so no member list is kept here; a spread would also drop a class's methods.
 */
export function withScreenText(platform: Platform, options: ScreenTextOptions): Platform {
  const vision = new ScreenText(platform, options);
  return overlay(platform, {
    accessibility: withOcrNodes(platform.accessibility, vision),
    vision,
    close: async () => {
      await vision.close();
      await platform.close();
    },
  });
}

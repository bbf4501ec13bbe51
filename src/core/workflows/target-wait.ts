import type { UiNode } from '../../shared/ui-node';
import type { ActionEngine } from '../actions/engine';
import { waitOnce } from '../actions/settle';
import type { Clock } from '../clock';
import type { Platform } from '../platform/types';
import type { BuiltTree } from '../ui/ids';
import { walk } from '../ui/tree-index';
import { resolveLocator, type Resolution, type Rung } from './resolve';
import type { Locator } from './schema';
import { isWindow } from './window';

export interface Found {
  node: UiNode;
  rung: Rung;
  /** The read it was found in: later checks of the same step judge this read instead of making another. */
  tree: BuiltTree;
}

interface Reader {
  engine: ActionEngine;
  platform: Platform;
  pid: number;
  signal?: AbortSignal;
}

/** Most polls in one wait, whatever the clock does: a wait is bounded even by a clock that stands still. */
const MAX_POLLS = 10_000;

export { EVENT_GAP_MS } from '../actions/settle';

export interface WaitTiming {
  clock: Clock;
  waitMs: number;
  pollMs: number;
  signal?: AbortSignal;
  /** Resolves at the app's next accessibility event (rejects when its signal aborts); absent where the platform has none. */
  nextEvent?: (signal: AbortSignal) => Promise<void>;
}

/**
 * Polls `ready` until it says yes or `waitMs` passes by the clock; true when it said yes.
 * Where the app reports events, the next look comes at its next event (after a short gap)
 * instead of at the next poll: what a step waits for shows as soon as the app changes.
 * Tests pass a FakeClock, whose sleeps advance time without waiting.
 */
export async function waitFor(timing: WaitTiming, ready: () => Promise<boolean>): Promise<boolean> {
  const deadline = timing.clock.now() + timing.waitMs;
  for (let poll = 0; poll < MAX_POLLS; poll += 1) {
    if (await ready()) return true;
    if (timing.clock.now() >= deadline) return false;
    await waitOnce(timing, Math.max(1, Math.min(timing.pollMs, deadline - timing.clock.now())));
  }
  return false;
}

function normalize(text: string): string {
  return text
    .replace(/[.…:]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The third rung: text read off the window's pixels, where the label shows but the tree does not carry it. */
async function byOcr(reader: Reader, locator: Locator): Promise<Resolution | undefined> {
  const vision = reader.platform.vision;
  if (vision === undefined || locator.name.trim() === '') return undefined;
  await vision.read(reader.pid);
  const tree = await reader.engine.observe(reader.pid, {
    bounds: 'interactive',
    fresh: true,
    ...(reader.signal === undefined ? {} : { signal: reader.signal }),
  });
  const wanted = normalize(locator.name);
  const lines = [...walk(tree.root)].filter((node) => node.source === 'ocr' && normalize(node.name) === wanted);
  if (lines.length === 1) return { kind: 'found', node: lines[0] as UiNode, rung: 'ocr' };
  if (lines.length > 1)
    return {
      kind: 'ambiguous',
      rung: 'ocr',
      candidates: lines.slice(0, 8).map((node) => ({ id: node.id, role: node.role, name: node.name, reason: 'the same text shows more than once on screen' })),
    };
  return undefined;
}

/**
 * One look for a locator's node: the tree without bounds (cheap), and with them only when a
 * tie needs the recorded position; then, when asked and nothing fit, OCR.
 */
export async function findTarget(reader: Reader, locator: Locator, options: { ocr: boolean }): Promise<{ resolution: Resolution; tree: BuiltTree }> {
  const signal = reader.signal === undefined ? {} : { signal: reader.signal };
  let tree = await reader.engine.observe(reader.pid, { bounds: 'none', ...signal });
  let resolution = resolveLocator(tree.root, locator);
  if (resolution.kind === 'ambiguous' && locator.bounds !== undefined) {
    tree = await reader.engine.observe(reader.pid, { bounds: 'interactive', ...signal });
    resolution = resolveLocator(tree.root, locator);
  }
  if (resolution.kind === 'missing' && options.ocr) {
    const seen = await byOcr(reader, locator);
    if (seen !== undefined) resolution = seen;
  }
  return { resolution, tree };
}

/** The app's windows as the tree shows them now. */
export async function observeWindows(reader: Reader): Promise<UiNode[]> {
  const tree = await reader.engine.observe(reader.pid, { bounds: 'none', fresh: true, ...(reader.signal === undefined ? {} : { signal: reader.signal }) });
  return windowsIn(tree.root);
}

/** Windows near the top of a tree: an app's windows and the dialogs inside them. */
export function windowsIn(root: UiNode, limit = 1_000): UiNode[] {
  const windows: UiNode[] = [];
  for (const node of walk(root)) {
    if (isWindow(node)) windows.push(node);
    if (windows.length >= limit) break;
  }
  return windows;
}

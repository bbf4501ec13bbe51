import type { Pointer } from '../../../../native/macos';
import { NodeNotFoundError } from '../../../shared/errors';
import type { Bounds } from '../../../shared/ui-node';
import { AXError } from './ax-errors';
import type { AxClient } from './ax-client';
import type { JsValue } from './cf';

/**
 * What a window is known by across reads: AXWindows follows the live stacking order, so an index
 * from an earlier read names another window after one raise, and two documents of the same shape
 * pass any role check (issue 29, point 6). AXIdentifier when the app sets one (AppKit's window
 * restoration and SwiftUI do); else the title and the frame read with the tree.
 */
export interface WindowKey {
  identifier?: string;
  title: string;
  frame?: Bounds;
}

/** The key of a window from what its tree read found. */
export function windowKey(identifier: string | undefined, title: string, frame: Bounds | undefined): WindowKey {
  return { ...(identifier === undefined ? {} : { identifier }), title, ...(frame === undefined ? {} : { frame }) };
}

/** Windows above this many are not searched: an app with more is read by index as before. */
const MAX_WINDOWS = 200;

/** What one live window says about itself, for matching. */
interface Seen {
  identifier: string | undefined;
  title: string;
  frame: Bounds | undefined;
}

/**
 * The live window `key` names, owned by the caller, found in AXWindows. An identifier must match
 * exactly; otherwise title and frame both, or, when one of them changed (a title gains
 * "Edited", a window moved), the one window that still has the other. Several candidates, or
 * none: the reference is stale, and NODE_NOT_FOUND with `reason: 'STALE_ID'` says so rather
 * than act on a window that only looks the same.
 */
export async function findWindow(client: AxClient, app: Pointer, pid: number, key: WindowKey): Promise<Pointer> {
  const { cf } = client;
  const windows = await client.copyRange(app, 'AXWindows', 0, MAX_WINDOWS, pid);
  if (windows === undefined) throw stale(pid, key);
  return cf.owned(windows, async (windows) => {
    const items = cf.arrayItems(windows);
    const seen = await cf.owned(cf.createArray(KEY_ATTRIBUTES.map((name) => cf.name(name))), async (names) => {
      const described: Seen[] = [];
      for (const window of items) described.push(await describe(client, window, names, pid));
      return described;
    });
    const index = pick(key, seen);
    if (index === undefined) throw stale(pid, key);
    // Borrowed from the array, which is released on return.
    return cf.native.CFRetain(items[index] as Pointer);
  });
}

/**
 * Makes the window `key` names the app's main window and raises it (AXMain, then AXRaise), as
 * Hammerspoon's window:focus() does (HSuicore.m becomeMain/raise) and AXorcist's focusWindow()
 * (Element+WindowOperations.swift). Best effort: a window that is gone or will not rise is
 * left alone, except for a stale grant (kAXErrorAPIDisabled), which the caller must report.
 */
export async function raiseWindow(client: AxClient, app: Pointer, pid: number, key: WindowKey): Promise<void> {
  const { cf, native } = client;
  const window = await findWindow(client, app, pid, key).catch(() => undefined);
  if (window === undefined) return;
  const denied = await cf.owned(window, async (window) => {
    const main = await client.set(window, 'AXMain', native.kCFBooleanTrue);
    const raise = await client.perform(window, 'AXRaise');
    return main === AXError.APIDisabled || raise === AXError.APIDisabled;
  });
  if (denied) throw client.fail(AXError.APIDisabled, 'AXUIElementPerformAction(AXRaise)', pid);
}

function pick(key: WindowKey, seen: Seen[]): number | undefined {
  const only = (matches: number[]): number | undefined => (matches.length === 1 ? matches[0] : undefined);
  const indices = (test: (window: Seen) => boolean): number[] => seen.flatMap((window, index) => (test(window) ? [index] : []));
  if (key.identifier !== undefined) return only(indices((window) => window.identifier === key.identifier));
  const sameFrame = (window: Seen): boolean => key.frame !== undefined && window.frame !== undefined && equalBounds(window.frame, key.frame);
  const both = indices((window) => window.title === key.title && sameFrame(window));
  if (both.length > 0) return only(both);
  return only(indices((window) => window.title === key.title)) ?? only(indices(sameFrame));
}

/** The attributes a window is matched by, asked in one batch per window. */
const KEY_ATTRIBUTES = ['AXIdentifier', 'AXTitle', 'AXPosition', 'AXSize'];

async function describe(client: AxClient, window: Pointer, names: Pointer, pid: number): Promise<Seen> {
  const { cf } = client;
  const values = await client.copyMultiple(window, names, pid).catch(() => undefined);
  if (values === undefined) return { identifier: undefined, title: '', frame: undefined };
  return cf.ownedSync(values, (values) => {
    const at = cf.slots(values);
    const read = (index: number): JsValue => cf.toJs(at(index));
    const [identifier, title, position, size] = [read(0), read(1), read(2), read(3)];
    const frame =
      typeof position === 'object' && typeof size === 'object' && 'x' in position && 'width' in size
        ? { x: position.x, y: position.y, width: size.width, height: size.height }
        : undefined;
    return { identifier: typeof identifier === 'string' && identifier !== '' ? identifier : undefined, title: typeof title === 'string' ? title : '', frame };
  });
}

function equalBounds(a: Bounds, b: Bounds): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function stale(pid: number, key: WindowKey): NodeNotFoundError {
  return new NodeNotFoundError(
    `node not found: the window "${printable(key.title)}" of pid ${pid} is gone or can no longer be told apart; read the tree again`,
    {
      data: { reason: 'STALE_ID', candidates: [] },
    },
  );
}

/** A window title is the app's text: cut, and without control characters, before it goes into a message. */
function printable(title: string): string {
  return [...title.slice(0, 80)].map((character) => (character < ' ' || character === '\u007f' ? ' ' : character)).join('');
}

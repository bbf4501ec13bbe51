import type { Bounds } from '../../../shared/ui-node';
import { popoverShift, type Origin, type ScreenWindow } from './window-origin';

/** More would mean reading a pile of extents on every fetch while a menu is open: popovers are few. */
const MAX_CANDIDATES = 32;

export interface PopoverSearch {
  /** Nodes in breadth-first order. */
  order: readonly string[];
  /** Whether a node may be a popover: a GTK 4 container whose parent is the widget it hangs from. */
  isCandidate(path: string): boolean;
  /** Screen origin of the top-level window the node's extents count from. */
  windowOriginOf(path: string): Origin | undefined;
  extentsOf(path: string): Promise<Bounds | undefined>;
}

/**
 * GTK 4 popovers (a drop-down's list, a menu button's menu) shown now, by node, with the shift
 * that puts their contents on screen (popoverShift). Costs nothing while no popup window is
 * open beside the top-level windows; then one extents read per candidate, at most MAX_CANDIDATES.
 */
export async function findPopovers(windows: readonly ScreenWindow[], search: PopoverSearch): Promise<Map<string, Origin>> {
  const found = new Map<string, Origin>();
  const origins = new Set(windows.map((window) => `${window.x},${window.y}`));
  const candidates = search.order.filter((path) => search.isCandidate(path)).slice(0, MAX_CANDIDATES);
  if (candidates.length === 0 || origins.size === 0) return found;
  for (const path of candidates) {
    const origin = search.windowOriginOf(path);
    const bounds = origin === undefined ? undefined : await search.extentsOf(path);
    const shift = origin === undefined || bounds === undefined ? undefined : popoverShift(windows, bounds, origin);
    if (shift !== undefined) found.set(path, shift);
  }
  return found;
}

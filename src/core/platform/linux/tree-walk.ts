/**
 * The walk of what the cache left out (all of an app without a cache): GetChildren from the
 * root down, each subtree as soon as its parent is known, with bounded calls in flight.
 */
import { IFACE, type ObjectRef } from '../../../../native/linux/atspi';
import type { ReadCut } from '../../../shared/ui-node';
import type { AtspiClient } from './client';
import { limiter } from './pool';
import { isHugeContainer, labelRangeCell, visibleCells, type RangeCell } from './table-range';
import { asWalked, placedElsewhere, unlessFrozen, type AppTarget, type CacheRows, type Item } from './tree-items';
import { sampledReads } from './sampled-reads';

/** Nodes whose calls are in flight at once: enough to pipeline, few enough not to swamp the app. */
export const CONCURRENCY = 48;

/** Says that the read left nodes out, and which cap made it. */
export type CutMark = (limit: number, reason?: ReadCut['reason']) => void;

/** A node whose children the cache did not list in full (GTK3 menus report -1, tables leave cells out). */
function isIncomplete(item: Item, children: Map<string, string[]>): boolean {
  return item.childCount !== 0 && (children.get(item.self[1])?.length ?? 0) !== item.childCount;
}

/** Where GetChildren listed a node that the cache placed under another parent: its place if that parent is never reached. */
export type Alternates = Map<string, { parent: string; index: number }>;

/**
 * A node's children as GetChildren lists them, less those the cache places under another
 * parent it holds (GTK3 lists a popup's insides under the button too). Each one left out is
 * remembered where it was listed, in case that other parent is never reached (see adoptOrphans).
 */
export function listedChildren(path: string, listed: string[], items: ReadonlyMap<string, Pick<Item, 'parentPath'>>, alternates?: Alternates): string[] {
  return listed.filter((child, index) => {
    const elsewhere = placedElsewhere(items.get(child)?.parentPath, path, (other) => items.has(other));
    if (elsewhere && alternates !== undefined && !alternates.has(child)) alternates.set(child, { parent: path, index });
    return !elsewhere;
  });
}

/**
 * Reads what the cache left out. Each subtree goes on as soon as its parent is known,
 * instead of level by level, so a deep uncached branch costs its depth in round trips
 * and nothing more; a limiter keeps the calls in flight bounded.
 */
export async function walkMissing(
  client: AtspiClient,
  { bus, bridge }: AppTarget,
  items: Map<string, Item>,
  children: Map<string, string[]>,
  rootPath: string,
  maxNodes: number,
  alternates?: Alternates,
  cut?: CutMark,
  known?: CacheRows,
): Promise<void> {
  const limit = limiter(CONCURRENCY);
  // Reads that ask siblings only what they do not share (LibreOffice); plain node reads elsewhere.
  const reads = sampledReads(client, bridge, limit);
  const addresses = new Map<string, RangeCell>();
  let inFlight = 0;
  // Each node is expanded once: an app whose children lists loop (a child listing its own
  // ancestor, with a child count that never matches) would otherwise recurse until the stack ran out.
  const expanded = new Set<string>();
  // Each node's work is a task of its own, counted, not awaited by its parent: a parent's frame
  // ends with its own calls instead of living (and being promoted, then thrown away) until its
  // whole subtree is read. The walk ends when no task is left; the first failure ends it at once.
  let outstanding = 0;
  let finish: () => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const settle = (): void => {
    outstanding -= 1;
    if (outstanding === 0) finish();
  };
  const spawn = (work: Promise<void>): void => {
    outstanding += 1;
    work.then(settle, (error: unknown) => {
      fail(error);
      settle();
    });
  };
  const expand = async (path: string): Promise<void> => {
    if (expanded.has(path)) return;
    expanded.add(path);
    const item = items.get(path) as Item;
    if (isIncomplete(item, children) && items.size >= maxNodes) cut?.(maxNodes);
    if (isIncomplete(item, children) && items.size < maxNodes) {
      // A huge container's count and visible cells skip the limiter: a read has one or two of them,
      // and queued behind hundreds of menu nodes they held a Calc sheet's range back by 150 ms.
      // The cache says -1 (unknown) for a Writer document, which manages its descendants: its own count tells whether listing is safe.
      if (item.childCount < 0 && isHugeContainer(item)) {
        const count = Number(await client.property([bus, path], IFACE.accessible, 'ChildCount').catch(unlessFrozen(-1)));
        if (Number.isFinite(count) && count >= 0) items.set(path, { ...item, childCount: count });
      }
      if (isHugeContainer(items.get(path) as Item)) {
        // Never list the children of a sheet that claims billions of cells: read what is on screen.
        const cells = item.interfaces.includes(IFACE.table) ? await visibleCells(client, [bus, path]).catch(unlessFrozen([])) : [];
        for (const cell of cells) addresses.set(cell.ref[1], cell);
        children.set(
          path,
          cells.map((cell) => cell.ref[1]),
        );
      } else {
        const [refs] =
          item.listed !== undefined ? [item.listed] : await limit(() => client.call([bus, path], IFACE.accessible, 'GetChildren')).catch(unlessFrozen([[]]));
        children.set(
          path,
          listedChildren(
            path,
            (refs as ObjectRef[]).map((ref) => ref[1]),
            items,
            alternates,
          ),
        );
      }
    }
    descend(path);
  };
  /**
   * A node already read whose children are all listed needs no call: it is walked here, in the
   * same depth-first order its task would have taken, without a task (two promises) of its own.
   * On a page read in document order (tree-order.ts) that is every node, 17,000 on the 20k page.
   */
  const walkRead = (path: string): void => {
    if (expanded.has(path)) return;
    if (isIncomplete(items.get(path) as Item, children)) return spawn(expand(path));
    expanded.add(path);
    descend(path);
  };
  const descend = (path: string): void =>
    (children.get(path) ?? []).forEach((child, index) => (items.has(child) ? walkRead(child) : spawn(visit(child, index, path))));
  const visit = async (child: string, index: number, parent: string): Promise<void> => {
    if (!items.has(child)) {
      // Reads in flight count against the cap too: siblings start together, and none past the cap is read.
      if (items.size + inFlight >= maxNodes) return void cut?.(maxNodes);
      inFlight += 1;
      const row = known?.get(child);
      const cell = addresses.get(child);
      const read = await (
        row !== undefined && row.childCount >= 0
          ? Promise.resolve(asWalked(row, index))
          : cell !== undefined
            ? reads.cell([bus, child], index, parent, cell)
            : reads.node([bus, child], index, parent)
      )
        .catch(unlessFrozen(undefined))
        .finally(() => (inFlight -= 1));
      if (read === undefined) return;
      // A cell of a range read without its name (LibreOffice names its own "A1") is named by its address, and described by its headers.
      if (cell !== undefined) labelRangeCell(read, cell);
      items.set(child, read);
    }
    walkRead(child);
  };
  walkRead(rootPath);
  // Nothing to read at all: no task was spawned to end the walk.
  if (outstanding === 0) return;
  await finished;
}

function reachable(children: Map<string, string[]>, rootPath: string): Set<string> {
  const seen = new Set([rootPath]);
  for (let frontier = [rootPath]; frontier.length > 0;)
    frontier = frontier.flatMap((path) => (children.get(path) ?? []).filter((child) => !seen.has(child) && seen.add(child)));
  return seen;
}

/**
 * A node the cache places under a parent that is never reached from the root (LibreOffice
 * names a detached object as its main pane's parent) goes back where GetChildren listed it,
 * and what is under it is walked then. Bounded: each round adopts what the last one uncovered.
 */
export async function adoptOrphans(
  children: Map<string, string[]>,
  alternates: Alternates,
  rootPath: string,
  walk: (orphan: string) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < 4 && alternates.size > 0; round += 1) {
    const reached = reachable(children, rootPath);
    const orphans = [...alternates].filter(([child, { parent }]) => !reached.has(child) && reached.has(parent));
    if (orphans.length === 0) return;
    for (const [child, { parent, index }] of orphans) {
      alternates.delete(child);
      const kids = [...(children.get(parent) ?? [])];
      kids.splice(Math.min(index, kids.length), 0, child);
      children.set(parent, kids);
    }
    await Promise.all(orphans.map(([child]) => walk(child)));
  }
}

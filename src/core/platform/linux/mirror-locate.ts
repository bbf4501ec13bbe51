/**
 * Where the nodes an event named, but a mirror does not hold, are now: each is placed by its
 * parents (a Parent call for each node on the way up, each asked once), so a node a toolkit
 * made and threw away between two reads (LibreOffice rebuilds a hidden sidebar panel's
 * toolbars on every edit in a sheet, and each announces itself on the way) is told apart from
 * one the mirror really missed, which a full read would find.
 */
import { limiter } from './pool';

/** Nodes placed at once (their Parent calls in flight), as the mirror's other reads. */
const CONCURRENCY = 48;
/**
 * Most nodes placed in one round; LibreOffice names about 200 on an edit in a sheet. Past this
 * many, a full read is cheaper.
 */
export const MAX_LOCATED = 1000;
/** Levels climbed from such a node towards one the mirror holds. */
export const MAX_LOCATE_DEPTH = 32;

/** What the mirror knows, and the calls placing may make. */
export interface LocateContext {
  /** Undefined where the mirror does not hold the node; `range` for a table read by its visible range. */
  held(path: string): { range: boolean } | undefined;
  /** Parents whose lists were read again this round: whatever they list now is held already. */
  relisted: ReadonlySet<string>;
  parent(path: string): Promise<string | undefined>;
  /** A held node's children as a full read would place them; undefined when the call failed. */
  children(path: string): Promise<string[] | undefined>;
  isTimeout(error: unknown): boolean;
}

export interface Placed {
  /** Not in the app's tree (gone, detached, or left to a range read): later events on them cost nothing. */
  outside: string[];
  /** Held parents that list a node the mirror misses: their lists are to be read again, for these nodes. */
  missedUnder: Map<string, string[]>;
  /** Why placing gave up: the mirror then falls back to a full read. */
  unplaced?: string;
}

export async function locateNodes(missed: readonly string[], context: LocateContext): Promise<Placed> {
  const placed: Placed = { outside: [], missedUnder: new Map() };
  const first = missed[0];
  if (first === undefined) return placed;
  if (missed.length > MAX_LOCATED) return { ...placed, unplaced: `events named ${missed.length} nodes the tree does not hold, ${first} first` };
  // Nodes thrown away together share their parents: each is asked once, a bounded number at a time.
  const limit = limiter(CONCURRENCY);
  const parents = new Map<string, Promise<string | undefined | Error>>();
  const parentOf = (path: string): Promise<string | undefined | Error> => {
    let answer = parents.get(path);
    if (answer === undefined) {
      answer = limit(() => context.parent(path)).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      parents.set(path, answer);
    }
    return answer;
  };
  const lists = new Map<string, Promise<string[] | undefined>>();
  const listOf = (path: string): Promise<string[] | undefined> => {
    let list = lists.get(path);
    if (list === undefined) {
      list = context.children(path);
      lists.set(path, list);
    }
    return list;
  };
  const place = async (path: string): Promise<void> => {
    let child = path;
    for (let level = 0; level < MAX_LOCATE_DEPTH; level += 1) {
      const parent = await parentOf(child);
      if (parent instanceof Error) {
        if (context.isTimeout(parent)) throw parent;
        // A node that cannot say where it is has gone: a full read would not find it either.
        return void placed.outside.push(path);
      }
      if (parent === undefined || parent === child) return void placed.outside.push(path);
      const held = context.held(parent);
      if (held === undefined) {
        child = parent;
        continue;
      }
      // A table read by its visible range (a sheet) makes objects for cells on demand (the cursor's): its range read decides which it holds.
      if (held.range || context.relisted.has(parent)) return void placed.outside.push(path);
      const listed = await listOf(parent);
      if (listed === undefined || !listed.includes(child)) return void placed.outside.push(path);
      placed.missedUnder.set(parent, [...(placed.missedUnder.get(parent) ?? []), path]);
      return;
    }
    placed.unplaced ??= `an event named ${path}, which hangs more than ${MAX_LOCATE_DEPTH} levels under any node the tree holds`;
  };
  await Promise.all(missed.map(place));
  return placed;
}

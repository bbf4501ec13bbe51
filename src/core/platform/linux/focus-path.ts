import { IFACE, NULL_PATH, ROOT_PATH, STATE, type ObjectRef } from '../../../../native/linux/atspi';
import type { AccessibilityBackend } from '../types';
import type { AppDirectory, AppEntry } from './apps';
import type { AtspiClient } from './client';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from './collection-rule';
import { FocusTracker } from './focus-tracker';
import { unlessFrozen } from './tree-items';

/** Levels a chain of parents may climb: a loop in an app's parents must still end. */
const MAX_DEPTH = 128;
/** FOCUSED nodes followed up to the root: the focus and the views around it that say so too. */
const MAX_MATCHES = 6;

/** The paths from the app's root down to `path`, by its chain of parents; undefined when that chain does not reach the root. */
async function chainOf(client: AtspiClient, bus: string, path: string): Promise<string[] | undefined> {
  const chain = [path];
  for (let depth = 0; chain[0] !== ROOT_PATH; depth += 1) {
    const parent =
      depth < MAX_DEPTH ? ((await client.property([bus, chain[0] as string], IFACE.accessible, 'Parent')) as Partial<ObjectRef> | undefined) : undefined;
    const up = parent?.[0] === bus ? parent[1] : undefined;
    if (up === undefined || chain.includes(up)) return undefined;
    // Chromium's windows name no parent: a node without one hangs from the app's root (GetChildren then says whether it is there).
    chain.unshift(up === NULL_PATH ? ROOT_PATH : up);
  }
  return chain;
}

/** The FOCUSED nodes of the app, in one Collection query over its whole tree. */
async function focusedNodes(client: AtspiClient, bus: string): Promise<string[]> {
  const [refs] = (await client.call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [
    matchRule({ states: [STATE.FOCUSED] }),
    SORT_CANONICAL,
    0,
    true,
  ])) as [ObjectRef[]];
  return refs
    .filter((ref) => ref[0] === bus && ref[1] !== ROOT_PATH && ref[1] !== NULL_PATH)
    .slice(0, MAX_MATCHES)
    .map((ref) => ref[1]);
}

/**
 * The deepest of `candidates` that leads up to the app's root, with its index at each level
 * (one GetChildren per level, the levels in parallel); undefined when none does.
 */
async function placeOf(client: AtspiClient, bus: string, candidates: string[]): Promise<{ path: string; indices: number[] } | undefined> {
  const chains = await Promise.all(candidates.map((path) => chainOf(client, bus, path)));
  const chain = chains.reduce<string[] | undefined>(
    (deepest, each) => (each !== undefined && each.length > (deepest?.length ?? 0) ? each : deepest),
    undefined,
  );
  if (chain === undefined) return undefined;
  const indices = await Promise.all(
    chain.slice(1).map(async (path, level) => {
      const [listed] = await client.call([bus, chain[level] as string], IFACE.accessible, 'GetChildren');
      return (listed as ObjectRef[]).findIndex((ref) => ref[1] === path);
    }),
  );
  return indices.some((index) => index < 0) ? undefined : { path: chain[chain.length - 1] as string, indices };
}

/**
 * Where the app's focus is, for the compact tree's budgeted read (outline-read.ts): one
 * Collection query for the FOCUSED state (toolkits disagree on which nodes say it, Chromium
 * the page's button and two of its own views in no tree order: the deepest is the focus), its
 * chain of parents, and its index at each level. No walk, but the query scans the whole app.
 * Undefined where nothing has the focus or the chain does not lead to the app's root.
 */
export async function focusPathOf(client: AtspiClient, { bus }: Pick<AppEntry, 'bus'>): Promise<number[] | undefined> {
  return (await placeOf(client, bus, await focusedNodes(client, bus)))?.indices;
}

/**
 * AccessibilityBackend.focusPath over AT-SPI, for the apps read on demand (Gecko and Chromium
 * answer Collection). The focus comes from the app's events while it is watched (`observe`
 * subscribes to them and keeps the app observed for a while), so only the first ask of a
 * subscription pays the Collection query's scan of the whole app: a page of 20,000 nodes
 * costs the compact tree what one of 2,000 does.
 */
export function createFocusPath(
  client: AtspiClient,
  apps: AppDirectory,
  observe: (bus: string) => Promise<void>,
  tracker = new FocusTracker(client),
): NonNullable<AccessibilityBackend['focusPath']> {
  const ask = async (bus: string): Promise<number[] | undefined> => {
    const told = tracker.current(bus);
    if (told !== undefined) {
      if (told.path === undefined) return undefined;
      const place = await placeOf(client, bus, [told.path]);
      if (place !== undefined) return place.indices;
      // The node the focus went to has left the tree: ask the app.
      tracker.forget(bus);
    }
    // Watched before the question, so no focus event falls between the app's answer and the events after it.
    await observe(bus);
    const mark = tracker.mark();
    const focused = await focusedNodes(client, bus);
    const place = await placeOf(client, bus, focused);
    // Nothing focused is worth knowing too; a chain that did not lead up is not.
    if (place !== undefined || focused.length === 0) tracker.learned(bus, place?.path, mark);
    return place?.indices;
  };
  return async (pid, signal) => {
    const app = await apps.get(pid);
    if (!app.bridge.collection) return undefined;
    signal?.throwIfAborted();
    // A node that went away mid-chain leaves the focus unknown; a frozen or gone app is the read's answer.
    return ask(app.bus).catch(unlessFrozen(undefined));
  };
}

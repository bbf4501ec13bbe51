import type { UiNode } from '../../shared/ui-node';
import { findNodes } from '../ui/query';
import type { Locator } from './schema';
import { placesOf, relativeBounds, samePath, type Place } from './tree-places';
import { windowFits } from './window';

/** Which rung found the target: exact identity, identity with the ancestry relaxed, or the label's text by OCR. */
export type Rung = 'identity' | 'relaxed' | 'ocr';

/** A node that was considered and not taken, and why: what a halt report lists. */
export interface Refusal {
  id: string;
  role: string;
  name: string;
  reason: string;
}

export type Resolution =
  | { kind: 'found'; node: UiNode; rung: Rung; by?: 'toolkitId' | 'ordinal' | 'bounds' }
  | { kind: 'ambiguous'; rung: Rung; candidates: Refusal[] }
  | { kind: 'missing'; candidates: Refusal[] };

/** A recorded position breaks a tie only when one candidate's centre is this close and every other is far. */
const TIE_RADIUS = 12;
const REPORTED_CANDIDATES = 8;

function refusal(node: UiNode, reason: string): Refusal {
  return { id: node.id, role: node.role, name: node.name.slice(0, 200), reason };
}

function centre(bounds: { x: number; y: number; width: number; height: number }): { x: number; y: number } {
  return { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
}

/**
 * Breaks a tie between candidates that all fit, or says it cannot. The ordinal counts only
 * when the recording saw that many identical siblings under one parent and the tree shows
 * exactly that many under one parent now; bounds only when exactly one candidate sits where
 * the target was. Anything else stays a tie, and a tie halts.
 */
function breakTie(places: readonly Place[], locator: Locator): { place: Place; by: 'ordinal' | 'bounds' } | undefined {
  const ordinal = locator.ordinal;
  const parent = places[0]?.parent;
  if (ordinal !== undefined && parent !== undefined && places.every((place) => place.parent === parent) && places.length === ordinal.of) {
    const place = places.find((each) => each.twin.index === ordinal.index);
    if (place !== undefined) return { place, by: 'ordinal' };
  }
  if (locator.bounds !== undefined) {
    const wanted = centre(locator.bounds);
    const near = places.filter((place) => {
      const bounds = relativeBounds(place.node, place.window);
      if (bounds === undefined) return false;
      const at = centre(bounds);
      return Math.hypot(at.x - wanted.x, at.y - wanted.y) <= TIE_RADIUS;
    });
    if (near.length === 1 && near[0] !== undefined) return { place: near[0], by: 'bounds' };
  }
  return undefined;
}

function ambiguous(places: readonly Place[], rung: Rung, locator: Locator): Resolution {
  const why =
    locator.ordinal === undefined
      ? 'the recording saw no identical siblings, so no ordinal'
      : `the ordinal (${locator.ordinal.index + 1} of ${locator.ordinal.of}) does not fit what is there now`;
  return {
    kind: 'ambiguous',
    rung,
    candidates: places
      .slice(0, REPORTED_CANDIDATES)
      .map((place) =>
        refusal(place.node, `fits as well as ${places.length - 1} other${places.length === 2 ? '' : 's'}; ${why}, and its position does not single it out`),
      ),
  };
}

function pick(places: readonly Place[], rung: Rung, locator: Locator): Resolution | undefined {
  if (places.length === 0) return undefined;
  if (places.length === 1) return { kind: 'found', node: (places[0] as Place).node, rung };
  const tie = breakTie(places, locator);
  return tie === undefined ? ambiguous(places, rung, locator) : { kind: 'found', node: tie.place.node, rung, by: tie.by };
}

/** Why a near miss is not the target, in words a person reads in a halt report. */
function nearMiss(place: Place, locator: Locator): string {
  const { node } = place;
  if (node.role !== locator.role) return `role is ${node.role}, not ${locator.role}`;
  if (node.name !== locator.name) return `name is ${JSON.stringify(node.name.slice(0, 80))}, not ${JSON.stringify(locator.name.slice(0, 80))}`;
  return 'does not fit';
}

/**
 * Finds a locator's node in one tree, without guessing. Rung 1, identity: the toolkit id when
 * the locator has one and exactly one node carries it; else role, name, window and the path
 * of ancestors all as recorded. Rung 2, relaxed: the same role and name anywhere in the app
 * (a renamed window, a wrapper added around the form). Two candidates that both fit are a tie
 * that an ordinal or position may break; otherwise the answer is `ambiguous`, never a pick.
 * OCR, the third rung, needs pixels and lives with the runner.
 */
export function resolveLocator(root: UiNode, locator: Locator): Resolution {
  const places = placesOf(root);
  if (locator.toolkitId !== undefined) {
    const byId = places.filter((place) => place.node.toolkitId === locator.toolkitId && place.node.role === locator.role);
    if (byId.length === 1) return { kind: 'found', node: (byId[0] as Place).node, rung: 'identity', by: 'toolkitId' };
  }
  const named = places.filter((place) => place.node.role === locator.role && place.node.name === locator.name);
  const exact = named.filter(
    (place) =>
      (locator.window === undefined || (place.window !== undefined && windowFits(place.window, locator.window))) &&
      (locator.path === undefined || samePath(place.path, locator.path)),
  );
  const identity = pick(exact, 'identity', locator);
  if (identity !== undefined) return identity;
  // An unnamed element is only its place: without the path there is nothing left to know it by.
  if (locator.name.trim() !== '') {
    const relaxed = pick(named, 'relaxed', locator);
    if (relaxed !== undefined) return relaxed;
  }
  return { kind: 'missing', candidates: nearMisses(root, places, locator) };
}

function nearMisses(root: UiNode, places: readonly Place[], locator: Locator): Refusal[] {
  const byId = new Map(places.map((place) => [place.node.id, place]));
  const refusals = new Map<string, Refusal>();
  const add = (place: Place | undefined): void => {
    if (place !== undefined && refusals.size < REPORTED_CANDIDATES && !refusals.has(place.node.id))
      refusals.set(place.node.id, refusal(place.node, nearMiss(place, locator)));
  };
  if (locator.name.trim() !== '') {
    for (const match of findNodes(root, { name: locator.name, limit: REPORTED_CANDIDATES })) add(byId.get(match.node.id));
  }
  for (const place of places) if (place.node.role === locator.role) add(place);
  return [...refusals.values()];
}

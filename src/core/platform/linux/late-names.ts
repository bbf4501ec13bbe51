/**
 * Gecko (Firefox 153 ESR, measured) sends a page's names from its content process to the
 * browser process only when a client first asks a name there: that first answer, and every
 * answer until they arrive (tens of milliseconds), is "". The document's own name (its title)
 * is there from the start; its links, headings and buttons are not. So a fresh client's first
 * read of a Firefox page got unnamed headings (`tree --budget 1500` on bzip2's HTML manual, a
 * fresh CLI process each time), and a fresh CLI's first `find --name "1. Introduction"` missed
 * the link of that name and fell back to a near match; a second call, or a pyatspi client asking
 * the same links 30 ms later, had every name. So before a client first reads, searches or acts
 * in a Gecko app (AppDirectory.get), a few name-bearing nodes of each web document are asked
 * for their names until one of them has one: a bounded wait, once per client and app.
 */
import { COORD_SCREEN, IFACE, ROLE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from './collection-rule';
import { unlessFrozen } from './tree-items';

/** Documents asked at most: a window's tabs, each its own document. */
const MAX_DOCUMENTS = 16;
/** Nodes asked per document: the first that name themselves from their content or label. */
const PROBES_PER_DOCUMENT = 4;
const PROBE_ROLES = [ROLE.LINK, ROLE.HEADING, ROLE.PUSH_BUTTON, ROLE.CHECK_BOX, ROLE.RADIO_BUTTON];
/** Asks at most, and the pause between them: a page whose probes are all unnamed costs this once per client and app. */
const MAX_ASKS = 12;
const PAUSE_MS = 25;

/** Apps whose names this client has already waited for, by bus: the names stay once they came. */
const primed = new WeakMap<AtspiClient, Set<string>>();
/** Buses remembered per client: a long-lived process sees apps come and go. */
const MAX_APPS = 64;

export interface LateNameOptions {
  /** Waits between asks (tests pass one that counts instead of waiting). */
  pause?: (ms: number) => Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The first nodes of some roles under `from`, in document order; none when the call fails. */
async function matches(client: AtspiClient, from: ObjectRef, roles: number[], count: number): Promise<ObjectRef[]> {
  const [refs] = (await client
    .call(from, COLLECTION, 'GetMatches', `${RULE}uib`, [matchRule({ roles }), SORT_CANONICAL, count, true])
    .catch(unlessFrozen([[]]))) as [ObjectRef[]];
  return refs.filter((ref) => ref[0] === from[0]);
}

/** One ask of a node's actions and extents, whose answers do not matter: the asking makes Gecko send them. */
async function askLateFacts(client: AtspiClient, probe: ObjectRef): Promise<void> {
  await Promise.all([
    client.property(probe, IFACE.action, 'NActions').catch(unlessFrozen(0)),
    client.call(probe, IFACE.component, 'GetExtents', 'u', [COORD_SCREEN]).catch(unlessFrozen([])),
  ]);
}

/**
 * Waits, once per client and app, until each of the app's web documents answers a name for
 * one of its first links, headings or buttons (or the asks run out). True when every document
 * with such nodes named one; false when one stayed unnamed, or no document was found (a page
 * still loading: the next call asks again).
 */
export async function awaitPageNames(client: AtspiClient, bus: string, options: LateNameOptions = {}): Promise<boolean> {
  let buses = primed.get(client);
  if (buses === undefined) primed.set(client, (buses = new Set()));
  if (buses.has(bus)) return true;
  const pause = options.pause ?? sleep;
  const documents = await matches(client, [bus, ROOT_PATH], [ROLE.DOCUMENT_WEB], MAX_DOCUMENTS);
  if (documents.length === 0) return false;
  buses.add(bus);
  for (const oldest of buses) if (buses.size > MAX_APPS) buses.delete(oldest);
  // Each document's own nodes: the browser's own buttons are named from the start and would prove nothing.
  let waiting = (await Promise.all(documents.map((document) => matches(client, document, PROBE_ROLES, PROBES_PER_DOCUMENT)))).filter(
    (probes) => probes.length > 0,
  );
  // Gecko sends a page's actions and extents late too, once first asked (a fresh Firefox answered
  // NActions 0 and extents -1 for tens of milliseconds): asked now, they have come by the time a
  // click needs them. Their answers do not matter (press() and bounds() ask again while one is
  // late), so they share the first names' round trip instead of costing one of their own.
  const facts = Promise.all(waiting.flatMap((probes) => (probes[0] === undefined ? [] : [askLateFacts(client, probes[0])])));
  // Handled from the start: a frozen app's error may come while the names are awaited (or after
  // they threw), and an unhandled rejection ends the process. `await facts` below still throws it.
  facts.catch(() => undefined);
  for (let ask = 0; ask < MAX_ASKS && waiting.length > 0; ask += 1) {
    if (ask > 0) await pause(PAUSE_MS);
    const named = await Promise.all(
      waiting.map(async (probes) => {
        const names = await Promise.all(probes.map((ref) => client.property(ref, IFACE.accessible, 'Name').catch(unlessFrozen(''))));
        return names.some((name) => String(name ?? '').trim() !== '');
      }),
    );
    waiting = waiting.filter((_probes, index) => named[index] !== true);
  }
  // Settled before returning, so no ask of this wait is still in flight when the read starts (a frozen app's error included).
  await facts;
  return waiting.length === 0;
}

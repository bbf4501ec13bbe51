/**
 * Gecko (Firefox 153 ESR, measured) names a page's nodes only once the page's content process
 * has sent their names to the browser process, and it asks for them when a client first asks any
 * name there: that first answer, and every answer until they arrive, is "". So the first read of
 * a Firefox page by a client that nothing had read before got an unnamed document and unnamed
 * headings (`tree --budget 1500` on bzip2's HTML manual, a fresh CLI process each time), and the
 * next read, a second later, named them all. A whole read walks long enough that its names
 * arrive (the Collection query for the focus, and the cache read, ask first); a budgeted read
 * reaches the page in a few milliseconds. So before a client's first read of a Gecko app, its
 * web documents are asked for their names until each has one (a page's title), a bounded wait.
 */
import { IFACE, ROLE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from './collection-rule';
import { unlessFrozen } from './tree-items';

/** Documents asked at most: a window's tabs, each its own document. */
const MAX_DOCUMENTS = 16;
/** Asks at most, and the pause between them: a title-less page costs this once per client and app. */
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

/**
 * Waits, once per client and app, until the app's web documents answer their names (or the
 * asks run out). True when every document found has a name; false when one stayed unnamed
 * (a page with no title) or none was found.
 */
export async function awaitPageNames(client: AtspiClient, bus: string, options: LateNameOptions = {}): Promise<boolean> {
  let buses = primed.get(client);
  if (buses === undefined) primed.set(client, (buses = new Set()));
  if (buses.has(bus)) return true;
  const pause = options.pause ?? sleep;
  const [documents] = (await client
    .call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [matchRule({ roles: [ROLE.DOCUMENT_WEB] }), SORT_CANONICAL, MAX_DOCUMENTS, true])
    .catch(unlessFrozen([[]]))) as [ObjectRef[]];
  // No page yet (still loading): the next read asks again.
  if (documents.length === 0) return false;
  buses.add(bus);
  for (const oldest of buses) if (buses.size > MAX_APPS) buses.delete(oldest);
  let waiting = documents.filter((ref) => ref[0] === bus);
  for (let ask = 0; ask < MAX_ASKS && waiting.length > 0; ask += 1) {
    if (ask > 0) await pause(PAUSE_MS);
    const names = await Promise.all(waiting.map((ref) => client.property(ref, IFACE.accessible, 'Name').catch(unlessFrozen(''))));
    waiting = waiting.filter((_ref, index) => String(names[index] ?? '').trim() === '');
  }
  return waiting.length === 0;
}

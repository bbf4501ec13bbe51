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
import { IFACE, ROLE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { COLLECTION, RULE, SORT_CANONICAL, matchRule } from './collection-rule';
import { unlessFrozen } from './tree-items';

/** Documents asked at most: a window's tabs, each its own document. */
const MAX_DOCUMENTS = 16;
/** Nodes asked per document: the first that name themselves from their content or label. */
const PROBES_PER_DOCUMENT = 4;
const PROBE_ROLES = [ROLE.LINK, ROLE.HEADING, ROLE.PUSH_BUTTON, ROLE.CHECK_BOX, ROLE.RADIO_BUTTON];
/**
 * What lies between the application and a tab's document in Firefox (measured on 153 ESR:
 * application > frame > panel > scroll pane > internal frame > document web); a browser's other
 * windows and dialogs hold theirs the same way. Toolbars, menus and the page's own content are
 * never entered.
 */
const HOLDER_ROLES = [ROLE.FRAME, ROLE.WINDOW, ROLE.DIALOG, ROLE.PANEL, ROLE.FILLER, ROLE.SCROLL_PANE, ROLE.INTERNAL_FRAME, ROLE.GROUPING, ROLE.SECTION];
/** Levels gone down from the application, and holders asked per level: bounds, with room above Firefox's five. */
const MAX_LEVELS = 8;
const MAX_HOLDERS = 64;
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

/**
 * The first nodes of some roles under `from`, in document order; none when the call fails. With
 * `children` only its direct children are matched: at-spi2-atk goes down no further then, where
 * a search of the subtree stops only once it has `count`, so one that finds fewer visits every
 * node under `from` (a 20,000-node page's, for a tab's one document).
 */
async function matches(client: AtspiClient, from: ObjectRef, roles: number[], count: number, children = false): Promise<ObjectRef[]> {
  const [refs] = (await client
    .call(from, COLLECTION, 'GetMatches', `${RULE}uib`, [matchRule({ roles }), SORT_CANONICAL, count, !children])
    .catch(unlessFrozen([[]]))) as [ObjectRef[]];
  return refs.filter((ref) => ref[0] === from[0]);
}

/**
 * The app's web documents (at most MAX_DOCUMENTS), found level by level down the nodes that
 * hold them, each level's children matched by role in the app (two calls a holder, all of a
 * level at once): a few calls however big the pages are, and a page's content is never visited.
 */
export async function webDocuments(client: AtspiClient, bus: string): Promise<ObjectRef[]> {
  const documents: ObjectRef[] = [];
  let holders: ObjectRef[] = [[bus, ROOT_PATH]];
  for (let level = 0; level < MAX_LEVELS && holders.length > 0 && documents.length < MAX_DOCUMENTS; level += 1) {
    const found = await Promise.all(
      holders.map(async (holder) => {
        const [web, inner] = await Promise.all([
          matches(client, holder, [ROLE.DOCUMENT_WEB], MAX_DOCUMENTS, true),
          matches(client, holder, HOLDER_ROLES, MAX_HOLDERS, true),
        ]);
        return { web, inner };
      }),
    );
    documents.push(...found.flatMap(({ web }) => web));
    holders = found.flatMap(({ inner }) => inner).slice(0, MAX_HOLDERS);
  }
  return documents.slice(0, MAX_DOCUMENTS);
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
  const documents = await webDocuments(client, bus);
  if (documents.length === 0) return false;
  buses.add(bus);
  for (const oldest of buses) if (buses.size > MAX_APPS) buses.delete(oldest);
  // Each document's own nodes: the browser's own buttons are named from the start and would prove nothing.
  let waiting = (await Promise.all(documents.map((document) => matches(client, document, PROBE_ROLES, PROBES_PER_DOCUMENT)))).filter(
    (probes) => probes.length > 0,
  );
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
  return waiting.length === 0;
}

/**
 * What each toolkit's AT-SPI bridge can be asked without harm. An app's bridge runs inside the
 * app, so a call it mishandles kills the app, not the reader: Qt 5 and Qt 6 crash (SIGSEGV in
 * QVariant::toString) on a bare Properties.GetAll, measured with gdbus alone. A call goes to a
 * toolkit only when its bridge is known to take it; a toolkit not listed here gets the calls
 * every bridge answers (one Properties.Get per property).
 */
export type BridgeKind = 'gtk3' | 'gtk4' | 'qt' | 'gecko' | 'chromium' | 'libreoffice' | 'unknown';

export interface Bridge {
  kind: BridgeKind;
  /** As the app's Application interface says it ("Qt", "GTK", "Gecko", "Chromium"); '' when unread. */
  toolkit: string;
  version: string;
  /** Properties.GetAll on org.a11y.atspi.Accessible: name, description and child count in one call. */
  getAll: boolean;
  /** Cache.GetItems: the whole app in one call (at-spi2-atk after RegisterEvent, GTK 4). */
  cache: boolean;
  /**
   * Cache.GetItems rows stand in for the four calls that read a node, while the tree's shape is
   * still walked with GetChildren (Gecko: its cache also holds nodes no list reaches any more).
   * at-spi2-atk builds each row live, with the same calls as GetRole, GetState, GetInterfaces and
   * the properties, so a row says what those calls would.
   */
  cacheItems: boolean;
  /**
   * Application.GetApplicationBusAddress opens a direct connection to the app (at-spi2-atk's),
   * which carries its calls without the bus daemon in between. Asked of at-spi2-atk bridges alone.
   */
  direct: boolean;
  /** The cache's names stay current (its bridge sends a name change for each); Gecko and Chromium name some controls late. */
  cacheNames: boolean;
  /**
   * Collection.GetMatches: every node of some roles in one call (at-spi2-atk, which Gecko and
   * Chromium use). Asked of those two alone: Qt's bridge has no Collection and is never sent a
   * call it may mishandle; GTK 4 has none; GTK 3 and LibreOffice answer it, but their tree is
   * placed by the cache, which a chain of parents would not reproduce, and their cache read is one call anyway.
   */
  collection: boolean;
  /**
   * A whole read takes its shape from Collection.GetMatchesFrom in document order, a page of
   * nodes per call, instead of a GetChildren per parent (tree-order.ts): Chromium, whose cache
   * leaves the page out, and Gecko, whose cache holds a few dozen of the browser's own nodes at
   * most. On Gecko the order gives the walk's tree node for node (bench/gecko-read.ts: bench:apps'
   * page, a 500-node page and bzip2's HTML manual; bench/order-compare.ts at 20,000 nodes), with
   * no GetChildren and, from a client's second read, no GetInterfaces: 4.5 -> 3.1 calls per node on
   * the 500-node page, 151 -> 109 ms (load 6-9), and every node's read starts at once instead of
   * after its parent's list. Whether it made real-Firefox tests flaky under load was measured:
   * web-order, web-growing, truth and web-budgeted side by side, 6 runs with the order off and 6
   * with it on, interleaved, at load 6-26: off failed 2 (truth's check box read back unchanged;
   * web-order's 2 s TIMEOUT), on failed 1 (web-order's 2 s TIMEOUT, in a read that takes the order
   * either way); the failures are the load's. The document order costs 2 ms on bench:apps' page and
   * 9 ms on the manual's 1,531 nodes, so its pages are not pipelined with the reads.
   * (An earlier CI failure, a check box that never came into the tree while its page loaded, was
   * not reproduced; Gecko's replaced about:blank document, which still answers as it was listed, is
   * one way it can happen, closed in tree-order.ts.) The rest read their cache in one call.
   */
  order: boolean;
  /**
   * A node's interfaces are kept between reads while the app's events reach us, and a node known
   * to be no item view is listed in the round trip that reads it (kept-reads.ts): Qt, whose
   * bridge answers one fact per message, so each call saved is a round trip through the bus daemon.
   */
  keptInterfaces: boolean;
  /**
   * Walked siblings of one role under one parent share their interface list, so it is asked of
   * the first alone (sampled-reads.ts): LibreOffice, measured on 7.4.7.2 (its GTK 3 menus, a
   * Writer document's paragraphs, a table's cells).
   */
  siblingInterfaces: boolean;
  /**
   * A sheet's cells of one visible column share role and interfaces, are named by their address
   * and have no description or children, so where the column's first cell says so the others are
   * read by their states alone (sampled-reads.ts): LibreOffice Calc, measured on 7.4.7.2.
   */
  rangeColumns: boolean;
  /**
   * A page's names, actions and extents come to a client only after it first asks for them: Gecko
   * (Firefox 153 ESR, measured) answers "" for a link's name, no actions for a check box and
   * (-1, -1, -1, -1) for its extents for some 30-140 ms after a client's first ask. So a client's
   * first use waits for the names (late-names.ts), and a press or a bounds asks again, a bounded
   * number of times, while the answer is still empty (accessibility.ts).
   */
  lateFacts: boolean;
}

/** Toolkits whose bridge is at-spi2-atk (GTK 3 and apps on ATK) or GTK 4's own: both answer GetAll and the cache. */
const ATK_LIKE: readonly BridgeKind[] = ['gtk3', 'gtk4', 'libreoffice'];

/** Names the toolkit in errors and in `doctor`: "Qt 5.15.8", "GTK 4.8.3". */
export function describeBridge(bridge: Pick<Bridge, 'toolkit' | 'version'>): string {
  const name = bridge.toolkit === '' ? 'an unknown toolkit' : bridge.toolkit;
  return bridge.version === '' ? name : `${name} ${bridge.version}`;
}

function kindOf(toolkit: string, version: string, appName: string): BridgeKind {
  const name = toolkit.trim().toLowerCase();
  if (name === 'qt') return 'qt';
  if (name === 'gecko') return 'gecko';
  if (name === 'chromium' || name === 'chrome' || name === 'electron') return 'chromium';
  if (name === 'gtk' || name === 'gail') {
    // LibreOffice's GTK 3 plug-in says "gtk"; its document model differs from a GTK app's.
    if (/^(soffice|libreoffice)/i.test(appName.trim())) return 'libreoffice';
    return version.startsWith('4') ? 'gtk4' : 'gtk3';
  }
  if (name === 'vcl' || name.startsWith('libreoffice')) return 'libreoffice';
  return 'unknown';
}

export function bridgeOf(toolkit: string, version: string, appName = ''): Bridge {
  const kind = kindOf(toolkit, version, appName);
  // Gecko and Chromium answer GetAll (measured). Chromium's cache matched its walk node for node (older Chromium answered GetItems
  // with an error, which costs one call); Gecko's cache holds buttons that GetChildren no longer lists, so Gecko is walked.
  const getAll = ATK_LIKE.includes(kind) || kind === 'gecko' || kind === 'chromium';
  return {
    kind,
    toolkit,
    version,
    getAll,
    cache: ATK_LIKE.includes(kind) || kind === 'chromium',
    cacheItems: kind === 'gecko',
    direct: kind === 'gecko' || kind === 'chromium' || kind === 'libreoffice',
    cacheNames: kind !== 'gecko' && kind !== 'chromium',
    collection: kind === 'gecko' || kind === 'chromium',
    order: kind === 'chromium' || kind === 'gecko',
    keptInterfaces: kind === 'qt',
    siblingInterfaces: kind === 'libreoffice',
    rangeColumns: kind === 'libreoffice',
    lateFacts: kind === 'gecko',
  };
}

/** The bridge of an app whose Application interface could not be read: only the calls every bridge takes. */
export const UNKNOWN_BRIDGE: Bridge = bridgeOf('', '');

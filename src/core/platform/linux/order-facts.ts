/**
 * Every node's role and states for a whole read in a few Collection queries, instead of a GetRole
 * and a GetState per node (a bridge whose `bulkFacts` flag is on: Chromium). A query walks the
 * app's whole tree inside the app, a few µs a node, and costs a message only per page of matches;
 * a per-node call costs a message each way (bench/bulk-facts.ts, 17,016-node page, Chromium 156,
 * load 7: a role or state rule's walk 50-85 ms of Chromium's CPU; GetRole for every node 330-420
 * ms, these role queries 260-340 ms; GetState 440-610 ms, these state queries and the GetStates
 * left 330-410 ms; the same roles, and the same decoded states, node for node).
 *
 * Roles: each role of a table gets a code, and one query per bit of the codes lists the nodes
 * whose role's code has that bit (MATCH_ANY over those roles), so a node's role is the one its
 * bits spell. The commonest roles of web pages get the codes with the fewest bits, so most nodes
 * come back in one query. No code is 0: a node no query lists is not known to be there (it went
 * between the order and the queries, as a browser's replaced about:blank document does), and is
 * asked both calls as before. A last query lists the nodes of every role outside the table: those,
 * and any node whose bits spell no code (its role changed between two queries), are asked GetRole
 * as before. So the table only moves the cost, never the answer.
 *
 * States: the read decodes a handful of bits (states.ts, and FOCUSABLE, SINGLE_LINE,
 * MANAGES_DESCENDANTS, DEFUNCT where tree-values.ts, table-range.ts and tree-order.ts look). The
 * nodes with any of them, or without ENABLED, are asked GetState as before; a third query lists the
 * SHOWING nodes. Every other node's states are ENABLED, and SHOWING where listed: its words hold
 * only the bits that were asked, which are all the bits a read of it decodes.
 */
import { ROLE, STATE, type ObjectRef } from '../../../../native/linux/atspi';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { AtspiClient } from './client';
import { COLLECTION, RULE, SORT_CANONICAL, bitWords } from './collection-rule';
import { isAppGone } from './read-crash';

/** Nodes per GetMatchesFrom: at-spi2-atk appends each match to a linked list (quadratic in a page), so pages stay small; measured 500–2,000 alike. */
export const ORDER_PAGE = 1000;
/** AtspiCollectionTreeTraversalType INORDER: from a node onward, up to the collection's end. */
const TREE_INORDER = 2;
/** AtspiCollectionMatchType. at-spi2-atk maps a rule's states and its MATCH_ANY roles to ATK's numbers; its ALL and NONE role matches do not, so roles are only matched ANY. */
const [MATCH_ALL, MATCH_ANY, MATCH_NONE] = [1, 2, 3];
/** Role words of a rule: at-spi2-atk reads as many as are sent, and roles go past 127 (SWITCH is 130). */
const ROLE_WORDS = 5;
const ANY_ROLE = Array.from({ length: ROLE_WORDS * 32 }, (_unused, role) => role);

/** A rule on states (matched as `stateMatch` says) and on roles (any of them; every role when undefined). */
export function factRule({
  states = [],
  stateMatch = MATCH_ALL,
  roles,
}: {
  states?: readonly number[];
  stateMatch?: number;
  roles?: readonly number[];
}): unknown[] {
  return [bitWords(states, 2), stateMatch, {}, MATCH_ALL, bitWords(roles ?? [], ROLE_WORDS), roles === undefined ? MATCH_ALL : MATCH_ANY, [], MATCH_ALL, false];
}

/**
 * Every node under `root` (itself left out) that `rule` matches, in document order; undefined when
 * the app did not answer Collection or more than `maxNodes` match. at-spi2-atk's in-order search,
 * once it has run out of nodes, goes over the collection's top children again: a page holding a
 * node already listed means the end, and what repeats is dropped.
 */
export async function matchesInOrder(client: AtspiClient, root: ObjectRef, rule: unknown[], maxNodes: number): Promise<string[] | undefined> {
  const found: string[] = [];
  const seen = new Set<string>([root[1]]);
  let from = root[1];
  // Bounded: each page lists new nodes only, and no more than maxNodes are taken.
  for (let pages = 0; pages <= Math.ceil(maxNodes / ORDER_PAGE); pages += 1) {
    let page: ObjectRef[];
    try {
      [page] = (await client.call(root, COLLECTION, 'GetMatchesFrom', `o${RULE}uuib`, [from, rule, SORT_CANONICAL, TREE_INORDER, ORDER_PAGE, true])) as [
        ObjectRef[],
      ];
    } catch (error) {
      if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
      return undefined;
    }
    let repeated = false;
    for (const ref of page) {
      const path = ref[1];
      if (ref[0] !== root[0] || seen.has(path)) {
        repeated ||= seen.has(path);
        continue;
      }
      seen.add(path);
      found.push(path);
    }
    if (found.length > maxNodes) return undefined;
    const last = page[page.length - 1];
    if (repeated || page.length < ORDER_PAGE || last === undefined) return found;
    from = last[1];
  }
  return undefined;
}

/**
 * Web pages' roles, commonest first as pages of text, sections, links and lists have them (the
 * 20,000-node generated page: static text, sections, links, paragraphs, list items, cells): the
 * first five get one bit each, the next ten two, and so on; 31 roles in five bits.
 */
const TABLE: readonly number[] = [
  ROLE.STATIC,
  ROLE.SECTION,
  ROLE.LINK,
  ROLE.PARAGRAPH,
  ROLE.LIST_ITEM,
  ROLE.TABLE_CELL,
  ROLE.PUSH_BUTTON,
  ROLE.HEADING,
  ROLE.TABLE_ROW,
  ROLE.LIST,
  ROLE.IMAGE,
  ROLE.ENTRY,
  ROLE.LANDMARK,
  ROLE.FORM,
  ROLE.LABEL,
  ROLE.TABLE,
  ROLE.DOCUMENT_WEB,
  ROLE.FRAME,
  ROLE.PANEL,
  ROLE.FILLER,
  ROLE.COLUMN_HEADER,
  ROLE.ROW_HEADER,
  ROLE.CHECK_BOX,
  ROLE.RADIO_BUTTON,
  ROLE.COMBO_BOX,
  ROLE.MENU_ITEM,
  ROLE.TOOL_BAR,
  ROLE.SEPARATOR,
  ROLE.PAGE_TAB,
  ROLE.ARTICLE,
  ROLE.FOOTER,
];
const BITS = 5;

function popcount(value: number): number {
  let count = 0;
  for (let rest = value; rest > 0; rest >>= 1) count += rest & 1;
  return count;
}

/** Codes by their count of bits, fewest first (0 left out): the commonest roles come back in the fewest queries. */
const CODES = Array.from({ length: (1 << BITS) - 1 }, (_unused, code) => code + 1).sort((a, b) => popcount(a) - popcount(b) || a - b);
const ROLE_OF_CODE = new Map(TABLE.map((role, index) => [CODES[index] as number, role]));
const CODE_OF_ROLE = new Map(TABLE.map((role, index) => [role, CODES[index] as number]));
const OUTSIDE_TABLE = ANY_ROLE.filter((role) => !CODE_OF_ROLE.has(role));

/** The bits the read decodes past ENABLED and SHOWING (see the file's comment); a node with any of them is asked its states. */
const DECODED_BITS = [
  STATE.CHECKED,
  STATE.DEFUNCT,
  STATE.EDITABLE,
  STATE.EXPANDABLE,
  STATE.EXPANDED,
  STATE.FOCUSABLE,
  STATE.FOCUSED,
  STATE.PRESSED,
  STATE.SELECTABLE,
  STATE.SELECTED,
  STATE.SINGLE_LINE,
  STATE.MANAGES_DESCENDANTS,
  STATE.INDETERMINATE,
  STATE.CHECKABLE,
  STATE.READ_ONLY,
];

export interface OrderFacts {
  /** Roles of the nodes the queries settled; a node left out is asked GetRole. */
  roles: Map<string, number>;
  /** States of the nodes the queries settled; a node left out is asked GetState. */
  states: Map<string, number[]>;
}

/**
 * Roles and states of `order`'s nodes from Collection queries under `root`. Empty maps when any
 * query goes unanswered (the nodes are then read one by one, as before); a timeout or a gone app
 * is the read's answer and is thrown.
 */
export async function orderFacts(client: AtspiClient, root: ObjectRef, order: readonly string[]): Promise<OrderFacts> {
  const none: OrderFacts = { roles: new Map(), states: new Map() };
  // Matches of one query can outnumber the order (nodes made since): bounded a little above it.
  const limit = order.length + ORDER_PAGE;
  const query = (rule: unknown[]): Promise<string[] | undefined> => matchesInOrder(client, root, rule, limit);
  const bitQueries = Array.from({ length: BITS }, (_unused, bit) =>
    factRule({ roles: TABLE.filter((role) => ((CODE_OF_ROLE.get(role) as number) >> bit) & 1) }),
  );
  // One after another: the app answers one call at a time, and each query walks its whole tree.
  const answers: (string[] | undefined)[] = [];
  for (const rule of [
    ...bitQueries,
    factRule({ roles: OUTSIDE_TABLE }),
    factRule({ states: DECODED_BITS, stateMatch: MATCH_ANY }),
    factRule({ states: [STATE.ENABLED], stateMatch: MATCH_NONE }),
    factRule({ states: [STATE.SHOWING] }),
  ]) {
    const answer = await query(rule);
    if (answer === undefined) return none;
    answers.push(answer);
  }
  const [outside, decoded, disabled, showing] = answers.slice(BITS).map((paths) => new Set(paths)) as Set<string>[];
  const codes = new Map<string, number>();
  answers.slice(0, BITS).forEach((paths, bit) => {
    for (const path of paths ?? []) codes.set(path, (codes.get(path) ?? 0) | (1 << bit));
  });
  const roles = new Map<string, number>();
  const states = new Map<string, number[]>();
  for (const path of order) {
    const code = codes.get(path);
    const stray = (outside as Set<string>).has(path);
    // A node no query listed may be gone: both its calls are asked, as without these queries.
    if (code === undefined && !stray) continue;
    const role = ROLE_OF_CODE.get(code ?? 0);
    if (role !== undefined && !stray) roles.set(path, role);
    if (!(decoded as Set<string>).has(path) && !(disabled as Set<string>).has(path))
      states.set(path, bitWords((showing as Set<string>).has(path) ? [STATE.ENABLED, STATE.SHOWING] : [STATE.ENABLED], 2));
  }
  return { roles, states };
}

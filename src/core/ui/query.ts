import { ValidationError } from '../../shared/errors';
import { ROLES, type Role, type UiNode } from '../../shared/ui-node';
import { walk } from './tree-index';

export interface NodeQuery {
  role?: Role | string;
  /** Matched against the node's name. */
  name?: string;
  /** Matched against name, value and description. */
  text?: string;
  limit?: number;
}

export interface Match {
  node: UiNode;
  /** 1 is an exact match; lower is fuzzier. Matches under MIN_SCORE are left out. */
  score: number;
}

export const MIN_SCORE = 0.45;

function normalize(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[_…]+/g, ' ').replace(/\s+/g, ' ').trim();
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_unused, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Typos are looked for (by edit distance, which costs the product of the two lengths) only
 * between strings up to this long: names, not documents. Longer ones still match by prefix,
 * substring and shared words, so a megabyte argument costs a linear scan, not minutes.
 */
export const MAX_TYPO_CHARS = 64;

/** What is worked out once per query string rather than once per node. */
interface Wanted {
  raw: string;
  text: string;
  words: string[];
  /** How often each word occurs in `words`. */
  counts: Map<string, number>;
}

let lastWanted: Wanted | undefined;

/** The query's normal form and words; a search asks with one string for every node of a tree, so the last one is kept. */
function prepare(wanted: string): Wanted {
  if (lastWanted?.raw === wanted) return lastWanted;
  const text = normalize(wanted);
  const words = text.split(' ');
  const counts = new Map<string, number>();
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
  lastWanted = { raw: wanted, text, words, counts };
  return lastWanted;
}

/** Whether `candidate` is `wanted` as textScore's exact tiers (1 and 0.95) see it, without its costlier tiers. */
export function isExactText(wanted: string, candidate: string): boolean {
  if (wanted === candidate) return true;
  const want = prepare(wanted).text;
  return want !== '' && normalize(candidate) === want;
}

/**
 * How well `candidate` matches `wanted`, from 0 to 1: exact, then case-insensitive,
 * prefix, word prefix, substring, shared words, and finally edit distance for typos.
 */
export function textScore(wanted: string, candidate: string): number {
  if (wanted === candidate) return 1;
  const query = prepare(wanted);
  const want = query.text;
  const have = normalize(candidate);
  if (want === '' || have === '') return 0;
  if (want === have) return 0.95;
  if (have.startsWith(want)) return 0.85 + 0.05 * (want.length / have.length);
  const words = have.split(' ');
  if (words.some((word) => word.startsWith(want))) return 0.8;
  if (have.includes(want)) return 0.7 + 0.1 * (want.length / have.length);
  // The query's words found among the candidate's, counted from the candidate's side: it is the short one.
  let shared = 0;
  for (const word of new Set(words)) shared += query.counts.get(word) ?? 0;
  const overlap = shared / query.words.length;
  if (want.length > MAX_TYPO_CHARS || have.length > MAX_TYPO_CHARS) return 0.65 * overlap;
  const similarity = 1 - levenshtein(want, have) / Math.max(want.length, have.length);
  return Math.max(0.65 * overlap, 0.75 * similarity);
}

/**
 * What a role asked for means, as a person (or a model) would mean it: "button" includes
 * toggle buttons (GTK's menu buttons are toggle buttons), "textfield" includes multi-line
 * text, "checkbox" includes switches.
 */
const ROLE_FAMILIES: Partial<Record<Role, readonly Role[]>> = {
  button: ['button', 'togglebutton'],
  checkbox: ['checkbox', 'switch'],
  textfield: ['textfield', 'textarea'],
  list: ['list', 'tree'],
  listitem: ['listitem', 'treeitem'],
};

/** Other words for the normalized roles, compared without spaces, dashes or underscores. */
const ROLE_SYNONYMS: Record<string, Role> = {
  pushbutton: 'button',
  toggle: 'togglebutton',
  check: 'checkbox',
  checkbutton: 'checkbox',
  radiobutton: 'radio',
  entry: 'textfield',
  input: 'textfield',
  textbox: 'textfield',
  textinput: 'textfield',
  edit: 'textfield',
  passwordtext: 'textfield',
  dropdown: 'combobox',
  select: 'combobox',
  spinner: 'spinbutton',
  scrollpane: 'scrollarea',
  menubutton: 'togglebutton',
  pagetab: 'tab',
  pagetablist: 'tablist',
  paragraph: 'text',
};

/** What a role query matches: normalized roles, or a platform role kept verbatim. */
export interface RoleFilter {
  roles: ReadonlySet<Role>;
  platformRole: string;
}

const squeeze = (role: string): string => role.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * Reads a role query. A normalized role (or a synonym) matches its family; a raw platform
 * role ("push button", "AXButton") matches nodes with that platform role. Anything else is
 * refused with the list of roles, so a typo is an error rather than an empty answer.
 */
export function roleFilter(role: string, root?: UiNode): RoleFilter {
  const wanted = squeeze(role);
  const normalized = (ROLES as readonly string[]).includes(wanted) ? (wanted as Role) : ROLE_SYNONYMS[wanted];
  if (normalized !== undefined) return { roles: new Set(ROLE_FAMILIES[normalized] ?? [normalized]), platformRole: wanted };
  if (root !== undefined) {
    for (const node of walk(root)) if (squeeze(node.platformRole) === wanted) return { roles: new Set(), platformRole: wanted };
  }
  throw new ValidationError(`unknown role '${role}'. Roles: ${ROLES.filter((name) => name !== 'unknown').join(', ')}.`);
}

function roleMatches(node: UiNode, filter: RoleFilter): boolean {
  return filter.roles.has(node.role) || squeeze(node.platformRole) === filter.platformRole;
}

function nodeTexts(node: UiNode): string[] {
  const texts = [node.name, node.description ?? ''];
  if (!node.states.secret && node.value !== undefined) texts.push(String(node.value));
  return texts.filter((text) => text !== '');
}

/**
 * Finds nodes by role and/or name or text, best match first; ties keep tree order.
 * An unknown role throws ValidationError (see roleFilter).
 */
export function findNodes(root: UiNode, query: NodeQuery): Match[] {
  const filter = query.role === undefined ? undefined : roleFilter(query.role, root);
  const matches: Match[] = [];
  for (const node of walk(root)) {
    if (filter !== undefined && !roleMatches(node, filter)) continue;
    let score = 1;
    if (query.name !== undefined) score = Math.min(score, textScore(query.name, node.name));
    if (query.text !== undefined) {
      score = Math.min(score, Math.max(0, ...nodeTexts(node).map((text) => textScore(query.text as string, text))));
    }
    if (score >= MIN_SCORE) matches.push({ node, score });
  }
  matches.sort((a, b) => b.score - a.score);
  return query.limit === undefined ? matches : matches.slice(0, query.limit);
}

/**
 * The Collection interface's match rules, shared by find (collection-find.ts), the whole read in
 * document order (tree-order.ts) and the focus (focus-path.ts). A rule is
 * `(aiia{ss}iaiiasib)`: states and how they match, attributes and how, roles and how,
 * interfaces and how, and whether to invert.
 */
export const COLLECTION = 'org.a11y.atspi.Collection';
export const RULE = '(aiia{ss}iaiiasib)';
/** AtspiCollectionMatchType: ALL (every listed bit; none listed matches all) and ANY. */
const MATCH_ALL = 1;
const MATCH_ANY = 2;
/** AtspiCollectionSortOrder CANONICAL: document order, the only one bridges sort by. */
export const SORT_CANONICAL = 1;
/** Words of a rule's state set (AtspiStateType goes up to 63) and of its role set (AtspiRole up to 127). */
const STATE_WORDS = 2;
const ROLE_WORDS = 4;

/**
 * Bit numbers as the rule's `ai` fields take them, 32 a word. The words are signed: bit 31 of a
 * word is a negative int32, not 2^31, which the encoder rightly refuses. Bits past the words are
 * left out.
 */
export function bitWords(bits: Iterable<number>, count: number): number[] {
  const words = new Array<number>(count).fill(0);
  for (const bit of bits) {
    if (bit >= 0 && bit < count * 32) words[bit >> 5] = (words[bit >> 5] as number) | (1 << (bit & 31));
  }
  return words;
}

/**
 * A rule for nodes with every one of `states` and any one of `roles` (every role when `roles`
 * is undefined; none when it is empty); no attributes or interfaces; not inverted.
 */
export function matchRule({ states = [], roles }: { states?: readonly number[]; roles?: readonly number[] } = {}): unknown[] {
  return [
    bitWords(states, STATE_WORDS),
    MATCH_ALL,
    {},
    MATCH_ALL,
    bitWords(roles ?? [], ROLE_WORDS),
    roles === undefined ? MATCH_ALL : MATCH_ANY,
    [],
    MATCH_ALL,
    false,
  ];
}

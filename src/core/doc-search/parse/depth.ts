/** Elements that never hold others, in HTML; XML marks these with `/>` instead. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** HTML elements whose end tag may be left out: a second one closes the first rather than nesting in it. */
const SELF_CLOSING_SIBLINGS = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'thead', 'tbody', 'tfoot', 'colgroup', 'rt', 'rp']);
/** How far an end tag looks down the stack for its start tag; a stray end tag does not unwind the whole stack. */
const MATCH_WINDOW = 64;

/**
 * The deepest nesting of elements in a markup file, by a linear scan of its tags, stopping as soon
 * as it passes `max`. The markup parser keeps its open elements with Array.unshift, so a file
 * nested N deep costs it N² moves (2.4 MB of `<div>` took minutes); this scan runs first and
 * costs one pass. It is an estimate on purpose: comments and scripts are not told apart, and
 * end tags HTML lets a page leave out are approximated, which only ever errs by a few levels.
 */
export function exceedsDepth(source: string, max: number, xml: boolean): boolean {
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:.-]*)[^<>]*?(\/?)>/g;
  for (let match = tag.exec(source); match !== null; match = tag.exec(source)) {
    const [, closing, rawName = '', selfClosing] = match;
    const name = xml ? rawName : rawName.toLowerCase();
    if (closing === '/') {
      const from = stack.lastIndexOf(name, stack.length - 1);
      if (from >= 0 && stack.length - from <= MATCH_WINDOW) stack.length = from;
      continue;
    }
    if (selfClosing === '/' || (!xml && VOID.has(name))) continue;
    if (!xml && SELF_CLOSING_SIBLINGS.has(name) && stack.at(-1) === name) continue;
    stack.push(name);
    if (stack.length > max) return true;
  }
  return false;
}

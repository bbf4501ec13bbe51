/**
 * Splits markdown into top-level blocks that render the same alone as together, so a streaming
 * answer only re-renders its last block: markdown-it over a whole long answer costs tens of ms
 * a time, and doing that 20 times a second would keep the window busy.
 *
 * A boundary is a blank line outside a code fence that is followed by an unindented line
 * (an indented one may continue a list item or be indented code) that does not start a list
 * item: items separated by blank lines are one loose list, and split apart they would render as
 * separate tight lists, each numbered from its own start. Reference-style link definitions apply
 * document-wide, so text that has one is kept whole.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s/m;
/** A bullet or ordered list marker followed by a space, a tab or the end of the line (an empty item). */
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
/** The unfinished last line of a streaming answer that may still become a list item ("1" of "1. "). */
const LIST_ITEM_PREFIX = /^\d{1,9}$/;

export function splitBlocks(text: string): string[] {
  if (REFERENCE_DEFINITION.test(text)) return [text];
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  let blankBefore = false;
  lines.forEach((line, index) => {
    const opener = FENCE.exec(line)?.[1];
    const last = index === lines.length - 1;
    // Deciding on the unfinished last line as it is must never be undone by what streams in next,
    // or a block that was already split off would join its neighbour again.
    const mayStartItem = LIST_ITEM.test(line) || (last && LIST_ITEM_PREFIX.test(line));
    if (fence === undefined && blankBefore && line.trim() !== '' && !/^[ \t]/.test(line) && !mayStartItem && current.length > 0) {
      blocks.push(current.join('\n'));
      current = [];
    }
    current.push(line);
    if (fence === undefined && opener !== undefined) {
      fence = opener;
    } else if (fence !== undefined && opener !== undefined && opener[0] === fence[0] && opener.length >= fence.length && line.trim() === opener) {
      fence = undefined;
    }
    blankBefore = fence === undefined && line.trim() === '';
  });
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

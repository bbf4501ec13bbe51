/**
 * Splits markdown into top-level blocks that render the same alone as together, so a streaming
 * answer only re-renders its last block: markdown-it over a whole long answer costs tens of ms
 * a time, and doing that 20 times a second would keep the window busy.
 *
 * A boundary is a blank line outside a code fence that is followed by an unindented line
 * (an indented one may continue a list item or be indented code). Reference-style link
 * definitions apply document-wide, so text that has one is kept whole.
 */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]+\]:\s/m;

export function splitBlocks(text: string): string[] {
  if (REFERENCE_DEFINITION.test(text)) return [text];
  const lines = text.split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: string | undefined;
  let blankBefore = false;
  for (const line of lines) {
    const opener = FENCE.exec(line)?.[1];
    if (fence === undefined && blankBefore && line.trim() !== '' && !/^[ \t]/.test(line) && current.length > 0) {
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
  }
  if (current.length > 0) blocks.push(current.join('\n'));
  return blocks;
}

import type { UiNode } from '../../shared/ui-node';
import type { WindowLocator } from './schema';

/** Titles longer than this are compared by their start: a title is a line, not a document. */
const MAX_TITLE = 1_000;

/**
 * A glob over a title: `*` is any run of characters, everything else is literal. Matched by
 * splitting on `*` and finding each piece in order, so a hostile pattern costs at most
 * pieces × title length, with no backtracking (a regex from a file could take forever).
 */
export function globMatch(pattern: string, text: string): boolean {
  const subject = text.slice(0, MAX_TITLE);
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === subject;
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (!subject.startsWith(first) || subject.length < first.length + last.length || !subject.endsWith(last)) return false;
  let at = first.length;
  const end = subject.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    if (piece === '') continue;
    const found = subject.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

export function isWindow(node: UiNode): boolean {
  return node.role === 'window' || node.role === 'dialog';
}

/** Whether a window node is the one a locator names: its role, and its title by pattern or exactly. */
export function windowFits(node: UiNode, wanted: WindowLocator): boolean {
  if (node.role !== wanted.role) return false;
  if (wanted.titlePattern !== undefined) return globMatch(wanted.titlePattern, node.name);
  return wanted.title === undefined || node.name === wanted.title;
}

/** Every window in a tree (the root too, when the tree is one window), in document order; windows inside windows count. */
export function windowsOf(root: UiNode, limit = 10_000): UiNode[] {
  const found: UiNode[] = [];
  const stack = [root];
  let seen = 0;
  while (stack.length > 0 && seen < limit) {
    const node = stack.pop() as UiNode;
    seen += 1;
    if (isWindow(node)) found.push(node);
    const children = node.children ?? [];
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as UiNode);
  }
  return found;
}

/** `dialog "Save As"`, for reports. */
export function describeWindow(wanted: WindowLocator): string {
  const title = wanted.titlePattern ?? wanted.title;
  return title === undefined ? wanted.role : `${wanted.role} ${JSON.stringify(title)}`;
}

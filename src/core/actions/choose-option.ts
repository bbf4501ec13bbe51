import { serializeError, DeskpilotError } from '../../shared/errors';
import type { UiActionResult } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import { MIN_SCORE, textScore } from '../ui/query';
import { findById, indexTree, shallow, walk } from '../ui/tree-index';
import type { ActionEngine } from './engine';
import { refind } from './locate';

/** Where a combo box's items show up once it is open: inside it (GTK, the fake), or in a popup list elsewhere. */
const OPTION_ROLES = new Set<Role>(['listitem', 'menuitem', 'radio', 'treeitem', 'cell']);
/** A choice must be a clear match, or "Blue" would settle for "Blue-green" when "Blue" is missing. */
const MIN_OPTION_SCORE = 0.8;

/** What a combo box shows as chosen: toolkits put it in the value, or (GTK's) in the name, or in its entry's text. */
export function selectionOf(node: UiNode): string {
  if (node.value !== undefined) return String(node.value);
  if (node.name.trim() !== '') return node.name;
  const entry = node.children?.find((child) => child.role === 'textfield');
  return entry?.value === undefined ? '' : String(entry.value);
}

function bestOption(nodes: Iterable<UiNode>, wanted: string, accept: (node: UiNode) => boolean): UiNode | undefined {
  let top: { node: UiNode; score: number } | undefined;
  for (const node of nodes) {
    if (!accept(node)) continue;
    const score = textScore(wanted, node.name);
    if (score >= Math.max(MIN_SCORE, MIN_OPTION_SCORE) && (top === undefined || score > top.score)) top = { node, score };
  }
  return top?.node;
}

function failure(before: UiNode, error: DeskpilotError, method?: UiActionResult['method']): UiActionResult {
  return {
    success: false,
    ...(method === undefined ? {} : { method }),
    nodeBefore: shallow(before),
    nodeAfter: null,
    changed: false,
    changes: [],
    error: serializeError(error),
  };
}

/**
 * set_value on a combo box, by the name of one of its items, as a person sets one: open it,
 * click the item, then read the box again to see that it shows that item. Combo boxes rarely
 * take a value through accessibility (GTK's never do), so this is the way that works;
 * ui_fill_form chooses options the same way.
 */
export async function chooseOption(
  engine: ActionEngine,
  pid: number,
  tree: UiNode,
  box: UiNode,
  wanted: string,
  signal?: AbortSignal,
): Promise<UiActionResult> {
  // Its place in the tree, to find it again: GTK names a combo box by its selection, so choosing renames it (and changes its id).
  const slot = indexTree(tree).get(box.id);
  if (textScore(wanted, selectionOf(box)) >= 0.95) {
    return {
      success: true,
      method: 'accessibility',
      nodeBefore: shallow(box),
      nodeAfter: shallow(box),
      changed: false,
      changes: [`already ${JSON.stringify(selectionOf(box))}`],
    };
  }
  const opened = await engine.run(pid, { action: 'click', id: box.id, settleMs: 0 }, signal);
  if (!opened.success) return { ...opened, nodeBefore: shallow(box) };
  const { root } = await engine.observe(pid, { fresh: true, ...(signal === undefined ? {} : { signal }) });
  const inside = findById(root, box.id);
  const option =
    (inside === undefined ? undefined : bestOption(walk(inside), wanted, (node) => node !== inside && OPTION_ROLES.has(node.role))) ??
    bestOption(walk(root), wanted, (node) => OPTION_ROLES.has(node.role) && node.states.visible !== false);
  if (option === undefined) {
    const offered = [...walk(inside ?? root)].filter((node) => OPTION_ROLES.has(node.role) && node.name.trim() !== '').slice(0, 10);
    // Closed again, so the app is left as it was found.
    await engine.run(pid, { action: 'key', key: 'escape', settleMs: 0 }, signal).catch(() => undefined);
    const list = offered.length === 0 ? '' : `; it offers ${offered.map((node) => JSON.stringify(node.name)).join(', ')}`;
    return failure(
      box,
      new DeskpilotError('NOT_SETTABLE', `the combo box ${JSON.stringify(box.name)} has no item named ${JSON.stringify(wanted)}${list}`),
      opened.method,
    );
  }
  const clicked = await engine.run(pid, { action: 'click', id: option.id }, signal);
  if (!clicked.success) return { ...clicked, nodeBefore: shallow(box) };
  // Verified on the box, not the item: the item's popup closes on the click.
  const now = (await engine.observe(pid, { fresh: true, ...(signal === undefined ? {} : { signal }) })).root;
  const after = slot === undefined ? findById(now, box.id) : refind(now, slot);
  const shows = after === undefined ? undefined : selectionOf(after);
  const chosen = shows !== undefined && textScore(option.name, shows) >= 0.95;
  return {
    success: true,
    ...(clicked.method === undefined ? {} : { method: clicked.method }),
    nodeBefore: shallow(box),
    nodeAfter: after === undefined ? null : shallow(after),
    changed: chosen,
    changes: chosen ? [`selection: ${JSON.stringify(selectionOf(box))} → ${JSON.stringify(shows)}`] : [],
  };
}

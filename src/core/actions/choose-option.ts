import { serializeError, DeskpilotError } from '../../shared/errors';
import type { UiActionResult } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import { MIN_SCORE, textScore } from '../ui/query';
import { findById, indexTree, shallow, walk } from '../ui/tree-index';
import type { ActionEngine } from './engine';
import { refind } from './locate';

/** Where a combo box's items show up once it is open: inside it (GTK, the fake), or in a popup list elsewhere. */
const OPTION_ROLES = new Set<Role>(['listitem', 'menuitem', 'radio', 'treeitem', 'cell']);
/** Reads of an opened list while its items are not there yet (GTK 4 fills its popover's rows about 300 ms after it opens). */
const OPTION_LOOKS = 12;
const OPTION_POLL_MS = 60;
const OPENER_ROLES = new Set<Role>(['button', 'togglebutton']);
/** A choice must be a clear match, or "Blue" would settle for "Blue-green" when "Blue" is missing. */
const MIN_OPTION_SCORE = 0.8;

/** Where a combo box keeps its list (open or closed): its text is the items', not what the box shows. */
const LIST_ROLES = new Set<Role>([...OPTION_ROLES, 'list', 'menu', 'tree', 'table']);
/** Most nodes of a box looked through for the text it shows: a box is a button and a label, not a page. */
const SHOWN_NODES = 200;

/**
 * The texts a combo box shows of its own, outside any list it holds: the labels of its button
 * (GTK 4's drop-down shows the chosen item as a label there, named by its label otherwise).
 * Labels the layout says are not on screen (zero size) are left out where bounds were read.
 */
export function shownTexts(box: UiNode): string[] {
  const texts: string[] = [];
  const stack = [...(box.children ?? [])];
  for (let seen = 0; stack.length > 0 && seen < SHOWN_NODES; seen += 1) {
    const node = stack.shift() as UiNode;
    if (LIST_ROLES.has(node.role)) continue;
    const hidden = node.bounds !== undefined && (node.bounds.width === 0 || node.bounds.height === 0);
    if (node.role === 'label' && node.name.trim() !== '' && !hidden) texts.push(node.name);
    stack.push(...(node.children ?? []));
  }
  return texts;
}

/**
 * What a combo box shows as chosen: toolkits put it in the value, or (GTK 3's) in the name, or
 * in its entry's text, or (GTK 4's drop-down, named by the label beside it) in a label inside.
 */
export function selectionOf(node: UiNode): string {
  if (node.value !== undefined) return String(node.value);
  if (node.name.trim() !== '' && node.nameFrom === undefined) return node.name;
  const entry = node.children?.find((child) => child.role === 'textfield');
  if (entry?.value !== undefined) return String(entry.value);
  return shownTexts(node).at(-1) ?? (node.nameFrom === undefined ? node.name : '');
}

/** The button a combo box holds to open its list (GTK 4's drop-down, an entry combo's arrow), outside any list; undefined when it holds none. */
function openerOf(box: UiNode): UiNode | undefined {
  const stack = [...(box.children ?? [])];
  for (let seen = 0; stack.length > 0 && seen < SHOWN_NODES; seen += 1) {
    const node = stack.shift() as UiNode;
    if (LIST_ROLES.has(node.role)) continue;
    if (OPENER_ROLES.has(node.role) && node.states.enabled) return node;
    stack.push(...(node.children ?? []));
  }
  return undefined;
}

/** The row holding the keyboard focus in the list that holds `optionId` (the popup's current row), if that list is still open. */
function focusedRowBeside(root: UiNode, optionId: string): UiNode | undefined {
  const index = indexTree(root);
  const parentId = index.get(optionId)?.parentId;
  const list = parentId === undefined ? undefined : index.get(parentId)?.node;
  return list?.children?.find((child) => OPTION_ROLES.has(child.role) && child.states.focused);
}

/** Whether a combo box shows `text` as its choice, by any of the ways selectionOf reads. */
export function showsChoice(box: UiNode, text: string): boolean {
  const shown = [selectionOf(box), ...shownTexts(box)];
  return shown.some((each) => textScore(text, each) >= 0.95);
}

/** An item's text: its name, else its labels' (GTK 4's list items are unnamed rows holding a label). */
export function itemText(node: UiNode): string {
  if (node.name.trim() !== '') return node.name;
  const labels: string[] = [];
  const stack = [...(node.children ?? [])];
  for (let seen = 0; stack.length > 0 && seen < SHOWN_NODES; seen += 1) {
    const child = stack.shift() as UiNode;
    if (child.role === 'label' && child.name.trim() !== '') labels.push(child.name);
    stack.push(...(child.children ?? []));
  }
  return labels.join(' ');
}

function bestOption(nodes: Iterable<UiNode>, wanted: string, accept: (node: UiNode) => boolean): UiNode | undefined {
  let top: { node: UiNode; score: number } | undefined;
  for (const node of nodes) {
    if (!accept(node)) continue;
    const score = textScore(wanted, itemText(node));
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
  if (showsChoice(box, wanted)) {
    return {
      success: true,
      method: 'accessibility',
      nodeBefore: shallow(box),
      nodeAfter: shallow(box),
      changed: false,
      changes: [`already ${JSON.stringify(selectionOf(box))}`],
    };
  }
  // GTK 4's drop-down refuses a press of its own but holds the button that opens it: pressed through accessibility, no pointer needed.
  const opener = openerOf(box);
  const opened = await engine.run(pid, { action: 'click', id: (opener ?? box).id, settleMs: 0 }, signal);
  if (!opened.success) return { ...opened, nodeBefore: shallow(box) };
  const fresh = { fresh: true, ...(signal === undefined ? {} : { signal }) };
  // A list fills after it opens (GTK 4 adds its rows a moment after the popover): looked at again, a bounded number of times.
  let root = tree;
  let inside: UiNode | undefined;
  let option: UiNode | undefined;
  for (let look = 0; look < OPTION_LOOKS && option === undefined; look += 1) {
    if (look > 0) await engine.clock.sleep(OPTION_POLL_MS, signal);
    root = (await engine.observe(pid, fresh)).root;
    inside = findById(root, box.id);
    option =
      (inside === undefined ? undefined : bestOption(walk(inside), wanted, (node) => node !== inside && OPTION_ROLES.has(node.role))) ??
      bestOption(walk(root), wanted, (node) => OPTION_ROLES.has(node.role) && node.states.visible !== false);
  }
  if (option === undefined) {
    const offered = [...walk(inside ?? root)].filter((node) => OPTION_ROLES.has(node.role) && itemText(node).trim() !== '').slice(0, 10);
    // Closed again, so the app is left as it was found.
    await engine.run(pid, { action: 'key', key: 'escape', settleMs: 0 }, signal).catch(() => undefined);
    const list = offered.length === 0 ? '' : `; it offers ${offered.map((node) => JSON.stringify(itemText(node).slice(0, 80))).join(', ')}`;
    return failure(
      box,
      new DeskpilotError('NOT_SETTABLE', `the combo box ${JSON.stringify(box.name)} has no item named ${JSON.stringify(wanted)}${list}`),
      opened.method,
    );
  }
  const clicked = await engine.run(pid, { action: 'click', id: option.id }, signal);
  if (!clicked.success) return { ...clicked, nodeBefore: shallow(box) };
  const label = itemText(option);
  // Verified on the box, not the item: the item's popup closes on the click.
  let now = (await engine.observe(pid, fresh)).root;
  let after = slot === undefined ? findById(now, box.id) : refind(now, slot);
  let chosen = after !== undefined && showsChoice(after, label);
  let method = clicked.method;
  const row = !chosen && clicked.via === 'selection' ? focusedRowBeside(now, option.id) : undefined;
  if (row !== undefined) {
    // GTK 4's drop-down takes a row only when its list is activated: selected through Selection, the row is marked and the box
    // still shows the old choice. Return on the list's focused row activates the list, and the drop-down takes the row its list
    // has selected (the one just chosen), as a person's Enter does. A toolkit that took the focused row instead would leave the
    // old choice, which the read below reports as no change; nothing else is chosen.
    const activated = await engine.run(pid, { action: 'key', key: 'return', id: row.id }, signal);
    method = activated.method ?? method;
    now = (await engine.observe(pid, fresh)).root;
    after = slot === undefined ? findById(now, box.id) : refind(now, slot);
    chosen = after !== undefined && showsChoice(after, label);
  }
  // A box with no value of its own (GTK's) is reported with the choice it shows as its value, as a recording folds one.
  const nodeAfter = after === undefined ? null : chosen && after.value === undefined ? { ...shallow(after), value: label } : shallow(after);
  return {
    success: true,
    ...(method === undefined ? {} : { method }),
    nodeBefore: shallow(box),
    nodeAfter,
    changed: chosen,
    changes: chosen ? [`selection: ${JSON.stringify(selectionOf(box))} → ${JSON.stringify(label)}`] : [],
  };
}

import type { UiNode } from '../../shared/ui-node';
import { walk } from '../ui/tree-index';
import type { RiskReason } from '../../shared/risk';

/** Control names whose click is hard to undo or spends money or speaks for the user. */
export const RISKY_NAME = /\b(delete|remove|discard|send|buy|pay|purchase|submit\s+order|place\s+order|erase|format)\b/i;

const MODIFIER_ALIASES: Record<string, string> = {
  cmd: 'cmd',
  command: 'cmd',
  meta: 'cmd',
  super: 'cmd',
  win: 'cmd',
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  option: 'alt',
  opt: 'alt',
  shift: 'shift',
};

/** `ctrl+q`, `{key: 'q', modifiers: ['ctrl']}` and `Control+Q` all become {mods: {ctrl}, key: 'q'}. */
export function normalizeCombo(key: string, modifiers: readonly string[] = []): { mods: Set<string>; key: string } {
  const parts = [...modifiers, ...key.split('+')].map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
  const mods = new Set<string>();
  let main = '';
  for (const part of parts) {
    const alias = MODIFIER_ALIASES[part];
    if (alias !== undefined) mods.add(alias);
    else main = part;
  }
  return { mods, key: main === 'del' ? 'delete' : main };
}

/**
 * Why a key combo is risky, or undefined. Risky: cmd/ctrl+q or +w (quit, close), alt+f4,
 * and delete/backspace held with cmd, ctrl or shift (delete a file, a message, a whole line).
 * Plain delete and backspace edit text and are not asked about.
 */
export function riskyCombo(key: string, modifiers: readonly string[] = []): RiskReason | undefined {
  const { mods, key: main } = normalizeCombo(key, modifiers);
  const values = { combo: [...mods, main].join('+') };
  const command = mods.has('cmd') || mods.has('ctrl');
  if (command && (main === 'q' || main === 'w')) return { code: 'quitsOrCloses', values };
  if (mods.has('alt') && main === 'f4') return { code: 'closesWindowKey', values };
  if ((main === 'delete' || main === 'backspace') && (command || mods.has('shift'))) return { code: 'deletesKey', values };
  return undefined;
}

export function riskyName(name: unknown): boolean {
  return typeof name === 'string' && RISKY_NAME.test(name);
}

/** The node with that id and the chain of its ancestors, root first; undefined when it is not in the tree. */
export function pathTo(root: UiNode, id: string): UiNode[] | undefined {
  if (root.id === id) return [root];
  for (const child of root.children ?? []) {
    const path = pathTo(child, id);
    if (path !== undefined) return [root, ...path];
  }
  return undefined;
}

/** A document or web page: role `document`, or a platform role that says web. */
export function isContentNode(node: UiNode): boolean {
  return node.role === 'document' || /web/i.test(node.platformRole);
}

/**
 * Whether reading the node `id` brought document or web content to the model: the node, one
 * of its ancestors, or one of its descendants is a document. `id` undefined means the whole tree.
 */
export function readsContent(root: UiNode, id: string | undefined): boolean {
  const path = id === undefined ? [root] : pathTo(root, id);
  if (path === undefined) return false;
  if (path.some(isContentNode)) return true;
  const node = path[path.length - 1];
  return node !== undefined && [...walk(node)].some(isContentNode);
}

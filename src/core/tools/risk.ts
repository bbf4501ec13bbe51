import type { Role, UiNode } from '../../shared/ui-node';
import { parseUiActionRequest } from '../../shared/ui-action';
import { walk } from '../ui/tree-index';
import { resolveModifiers } from '../actions/modifiers';
import { platformTraits } from '../platform/traits';
import type { RiskReason } from '../../shared/risk';

/**
 * Words on a control whose activation is hard to undo, spends money, speaks for the user or
 * ends something (an app, a window, a session), in English and Brazilian Portuguese. Matched
 * as whole words on text folded to lower case without accents ("Não salvar" → "nao salvar").
 */
const RISKY_WORDS = [
  // English
  'delete',
  'remove',
  'discard',
  'send',
  'buy',
  'pay',
  'purchase',
  'submit order',
  'place order',
  'checkout',
  'erase',
  'format',
  'trash',
  'quit',
  'exit',
  'close',
  'sign out',
  'log out',
  'logout',
  'log off',
  'overwrite',
  'uninstall',
  'reset',
  'wipe',
  'destroy',
  'terminate',
  'shut down',
  'shutdown',
  'restart',
  'reboot',
  'revoke',
  'publish',
  'transfer',
  "don't save",
  'dont save',
  'without saving',
  // Brazilian Portuguese
  'excluir',
  'apagar',
  'deletar',
  'remover',
  'descartar',
  'enviar',
  'comprar',
  'pagar',
  'pagamento',
  'finalizar compra',
  'finalizar pedido',
  'lixeira',
  'esvaziar',
  'sair',
  'fechar',
  'encerrar',
  'desconectar',
  'sobrescrever',
  'desinstalar',
  'redefinir',
  'resetar',
  'formatar',
  'reiniciar',
  'desligar',
  'revogar',
  'publicar',
  'transferir',
  'nao salvar',
  'sem salvar',
] as const;

const RISKY_PATTERN = new RegExp(`\\b(?:${RISKY_WORDS.map((word) => word.replace(/[ ']/g, (char) => (char === ' ' ? '\\s+' : "'"))).join('|')})\\b`);

/** Lower case, accents and marks removed, typographic apostrophes made plain, runs of space made one. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** Whether a text names a risky action: see RISKY_WORDS. */
export function riskyName(name: unknown): boolean {
  return typeof name === 'string' && RISKY_PATTERN.test(foldText(name));
}

/** Roles whose value is text a person edits: setting or typing text there activates nothing. */
const TEXT_ENTRY = new Set<Role>(['textfield', 'textarea', 'document', 'combobox', 'spinbutton', 'slider']);

/** How many nodes inside an unnamed control are read for its text (an icon-only button's label child). */
const INNER_TEXT_NODES = 20;

/**
 * The text that makes a control risky, or undefined. A control is what the user sees and hears
 * of it: its name (whether the app gave it, a label tied to it, a guess from the label beside
 * it, or the OCR line it is), its description (the tooltip), its placeholder, and for a control
 * without a name, the text of what it contains.
 */
export function riskyText(node: UiNode): string | undefined {
  for (const text of [node.name, node.description, node.placeholder]) if (riskyName(text)) return text;
  if (node.name.trim() !== '') return undefined;
  let seen = 0;
  for (const inner of walk(node)) {
    if (inner === node) continue;
    if ((seen += 1) > INNER_TEXT_NODES) break;
    for (const text of [inner.name, inner.description]) if (riskyName(text)) return text;
  }
  return undefined;
}

export function isTextEntry(node: UiNode): boolean {
  return TEXT_ENTRY.has(node.role) || node.states.editable === true;
}

/** The node keys go to when a key names none: the deepest focused node under the window. */
export function focusedNode(root: UiNode): UiNode | undefined {
  let found: UiNode | undefined;
  for (const node of walk(root)) {
    if (node.states.focused && node.role !== 'window' && node.role !== 'dialog' && node.role !== 'application') found = node;
  }
  return found;
}

export interface ParsedCombo {
  /** Canonical modifiers as the engine sends them on this platform (ctrl, alt, shift, meta). */
  mods: Set<string>;
  key: string;
}

/**
 * A key and its modifiers read exactly as the engine reads them: its own combo split, key
 * names and modifier aliases (`mod+q`, `cmdorctrl`, `Control+Q`, `del`), then the platform's
 * modifiers. Undefined when the engine would refuse it (an unknown key or modifier).
 */
export function parseCombo(key: string, modifiers: readonly string[] = [], platform = 'linux'): ParsedCombo | undefined {
  try {
    const request = parseUiActionRequest({ action: 'key', key, modifiers: [...modifiers] });
    if (request.action !== 'key') return undefined;
    return { mods: new Set(resolveModifiers(request.modifiers ?? [], platformTraits(platform).primaryModifier)), key: request.key };
  } catch {
    return undefined;
  }
}

/**
 * Why a key combo is risky, or undefined. Risky: a command key (ctrl, or meta: cmd on macOS, the
 * logo key elsewhere) with q or w (quit, close), alt+f4 and ctrl+f4 (close), and delete or
 * backspace held with a command key or shift (delete a file, a message, a whole line).
 * Plain delete and backspace edit text and are judged by where they land (see keyRisk).
 */
export function riskyCombo(key: string, modifiers: readonly string[] = [], platform = 'linux'): RiskReason | undefined {
  const combo = parseCombo(key, modifiers, platform);
  if (combo === undefined) return undefined;
  const { mods, key: main } = combo;
  const values = { combo: [...mods, main].join('+') };
  const command = mods.has('ctrl') || mods.has('meta');
  if (command && (main === 'q' || main === 'w')) return { code: 'quitsOrCloses', values };
  if ((mods.has('alt') || mods.has('ctrl')) && main === 'f4') return { code: 'closesWindowKey', values };
  if ((main === 'delete' || main === 'backspace') && (command || mods.has('shift'))) return { code: 'deletesKey', values };
  return undefined;
}

/** An action on a control with risky text, as the approval question says it. */
export function activates(node: UiNode): RiskReason | undefined {
  const text = riskyText(node);
  return text === undefined ? undefined : { code: 'clicks', values: { name: JSON.stringify(text) } };
}

/**
 * A key's risk: its combo, else what it lands on. Any key aimed at a control with risky text
 * counts as activating it (return and space press buttons; a focused button takes the rest
 * as shortcuts), and plain delete on a focused control that is not text moves the selection
 * to the trash in file managers and mail.
 */
export function keyRisk(key: string, modifiers: readonly string[], platform: string, target: UiNode | undefined): RiskReason | undefined {
  const combo = riskyCombo(key, modifiers, platform);
  if (combo !== undefined || target === undefined) return combo;
  const activated = activates(target);
  if (activated !== undefined) return activated;
  const parsed = parseCombo(key, modifiers, platform);
  if (parsed?.key === 'delete' && !isTextEntry(target)) return { code: 'deletesKey', values: { combo: 'delete' } };
  return undefined;
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

import type { UiNode } from '../../shared/ui-node';
import type { ActionEngine } from '../actions/engine';
import type { MenuShortcut, Platform } from '../platform/types';
import { readsFor } from '../tools/tree-read';
import { DEFAULT_SERIALIZE, formatNode, serializeTree, type SerializeOptions } from '../ui/serialize';
import { keyboardHints, shortcutHints } from './keyboard-hints';
import { agentText } from './text/agent-text';

/**
 * The tree gets most of the prompt, but not all: history and tool results need room too.
 * Tokens are estimated the way o200k_base counts them (ui/token-estimate), not by characters.
 */
export const CONTEXT_TREE_BUDGET: SerializeOptions = { maxTokens: 3000, maxNodes: 300, style: 'compact' };

/** Most characters of a read error the context quotes. */
const MAX_ERROR_CHARS = 300;

const OPEN = '<ui_data>';
const CLOSE = '</ui_data>';

/** Characters a model reads past: spaces, and the invisible ones (zero-width, soft hyphen, direction marks). */
const GAP = '[\\s\\u00ad\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\ufeff]*';
/** Each letter in either case and its fullwidth form (ｕｉ＿ｄａｔａ reads as ui_data). */
const letters = (word: string): string =>
  [...word]
    .map(
      (char) =>
        `[${char}${char.toUpperCase()}${String.fromCharCode(char.charCodeAt(0) + 0xfee0)}${String.fromCharCode(char.toUpperCase().charCodeAt(0) + 0xfee0)}]`,
    )
    .join('');

/**
 * Any spelling of either marker a model might still read as one: any case, spaces or invisible
 * characters inside, `_`, `-` or nothing between the words, attributes or no closing `>`, a
 * fullwidth `＜` or the entity `&lt;`. An inner opening marker matters too, as it could fake a
 * nested block. Each is broken up after its `<` (`<\/ui_data>`), which no model reads as the marker.
 */
const MARKER = new RegExp(`(<|\\uff1c|&lt;)(${GAP}[/\\uff0f]?${GAP}${letters('ui')}${GAP}[_\\-\\uff3f]?${GAP}${letters('data')})(?![A-Za-z0-9])`, 'g');

/**
 * UI text is written by whoever made the app or the web page in it, so it may try to
 * instruct the model. It goes in as quoted data between markers, and any marker inside
 * the data is broken up (`<\/ui_data>`) so the data cannot end the block early.
 */
export function quoteUiData(text: string): string {
  return `${OPEN}\n${text.replace(MARKER, '$1\\$2')}\n${CLOSE}`;
}

/** The system prompt's own rule (English here: the context message is scaffolding, not conversation). */
export const DATA_NOT_INSTRUCTIONS = agentText('en')('system.dataNotInstructions');

/**
 * A tool's message as the model reads it. Tool results mix our own notes with text read from
 * apps (names, values, web text, engine errors quoting both), and no per-tool split can be
 * trusted for plugin tools, so the whole message is quoted, after a lead line of our own.
 */
export function quoteToolResult(tool: string, message: string): string {
  return `Result of ${tool} (quoted as data, as it may hold text read from apps):\n${quoteUiData(message)}`;
}

/** The deepest focused node: the window itself reports focus too, but the model needs the field. */
export function findFocused(node: UiNode): UiNode | undefined {
  for (const child of node.children ?? []) {
    const found = findFocused(child);
    if (found !== undefined) return found;
  }
  return node.states.focused ? node : undefined;
}

/** Whether a budgeted read left children unread somewhere (they are counted, not listed): bounded by the budget's few thousand nodes. */
function readInPart(root: UiNode): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as UiNode;
    if ((node.childCount ?? 0) > (node.children?.length ?? 0)) return true;
    stack.push(...(node.children ?? []));
  }
  return false;
}

export interface ContextOptions {
  /** Deskpilot's own processes; a context for one of them says so and reads nothing. */
  ownPids?: readonly number[];
  tree?: SerializeOptions;
  /** How long the ask waits for the app's menu shortcuts; see SHORTCUT_WAIT_MS. */
  shortcutWaitMs?: number;
}

/**
 * The first read of an app's shortcuts costs a call per menu item (~0.2 s for mousepad);
 * later reads come from the platform's per-app memory. An ask does not wait longer than
 * this: a read still running finishes in the background, and the next ask has it.
 */
export const SHORTCUT_WAIT_MS = 500;

async function menuShortcuts(platform: Platform, pid: number, waitMs: number): Promise<MenuShortcut[]> {
  const { accessibility } = platform;
  if (accessibility.shortcuts === undefined) return [];
  // Shortcuts are a hint: a platform that cannot read them leaves the line out.
  const read = accessibility.shortcuts(pid).catch(() => []);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<MenuShortcut[]>((resolve) => {
    timer = setTimeout(() => resolve([]), waitMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The context for one ask: which app, which window, what has focus and which keys work
 * there (the focused control's standard keys and the app's menu accelerators, quoted as
 * data since menu names are UI text), and the compact tree within a token budget (secret
 * values are already dropped by engine.observe and never printed by serializeTree). A failure to read the app is reported
 * in the context, not thrown, so the model can still answer or call ui_apps.
 */
export async function buildContextMessage(engine: ActionEngine, platform: Platform, pid: number, options: ContextOptions = {}): Promise<string> {
  if (options.ownPids?.includes(pid) === true) {
    return `Context for this request:\nThe target (pid ${pid}) is Deskpilot itself, which is never read; call ui_apps to pick another app.`;
  }
  const apps = await platform.apps.list().catch(() => []);
  const app = apps.find((candidate) => candidate.pid === pid);
  const window = app?.windows.find((candidate) => candidate.focused === true) ?? app?.windows[0];
  // App names, window titles and the focused element's name are UI text as much as the tree is.
  const where = [`Target app: ${app === undefined ? 'unknown' : JSON.stringify(app.name)} (pid ${pid})`];
  if (window !== undefined) where.push(`Window: ${JSON.stringify(window.title)}`);
  const lines = [DATA_NOT_INSTRUCTIONS];
  const budget = options.tree ?? CONTEXT_TREE_BUDGET;
  try {
    // Only what the budget prints is read, outline first, where the platform reads on demand (web pages): the
    // context of a 20,000-node page costs what a small one does. Elsewhere (and for a platform that reads whole) the tree is read whole.
    const outline = await engine.observeOutline(pid, {
      maxReads: readsFor(budget.maxTokens ?? DEFAULT_SERIALIZE.maxTokens, budget.maxNodes ?? DEFAULT_SERIALIZE.maxNodes),
      maxTokens: budget.maxTokens ?? DEFAULT_SERIALIZE.maxTokens,
    });
    const root = outline?.root ?? (await engine.observe(pid, { bounds: 'none' })).root;
    const focused = findFocused(root);
    const noFocus = outline === undefined || !readInPart(root) ? 'none' : 'none among the nodes read (the tree was read in part; ui_find can look further)';
    where.push(`Focused element: ${focused === undefined ? noFocus : formatNode(focused, undefined, [], 'compact')}`);
    lines.push('Target app, window and focused element:', quoteUiData(where.join('\n')));
    lines.push(`Keys (ui_action key; standard for the focused control's kind): ${keyboardHints(focused, platform.primaryModifier).join('; ')}`);
    // Menu shortcuts are read from the whole tree: a tree the budget read only in part (a big page) goes without them rather than pay for it.
    const partial = outline !== undefined && readInPart(root);
    const shortcuts = partial ? '' : shortcutHints(await menuShortcuts(platform, pid, options.shortcutWaitMs ?? SHORTCUT_WAIT_MS));
    if (shortcuts !== '') {
      lines.push("Menu shortcuts (the app's own accelerators, read from its menus; press one with ui_action key):");
      lines.push(quoteUiData(shortcuts));
    }
    lines.push(
      'UI tree (one line per element: id role name = value (states); the id is the first word; a check box, radio, switch or toggle button with no "checked" is unchecked):',
    );
    lines.push(quoteUiData(serializeTree(root, budget)));
    lines.push('Names and values are cut short; call ui_read with an id for the full text, and ui_tree for more of the tree.');
  } catch (error) {
    lines.push('Target app and window:', quoteUiData(where.join('\n')));
    // A D-Bus error's message is written by the app, so the error is quoted as UI text is, and bounded.
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, MAX_ERROR_CHARS);
    lines.push("The app's UI could not be read; call ui_apps to find it. The error, as data:", quoteUiData(message));
  }
  return `Context for this request:\n${lines.join('\n')}`;
}

import { DeskpilotError, ProcessExitedError, UiNotAvailableError, UnsupportedOperationError, serializeError } from '../../shared/errors';
import type { ActionOutcome, UiActionRequest, UiActionResult, ActionMethod } from '../../shared/ui-action';
import type { Role, UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend, TreeOptions } from '../platform/types';
import { diffNodes, subtreeDigest } from '../ui/diff';
import type { BuiltTree } from '../ui/ids';
import { indexTree, shallow, type IndexedNode } from '../ui/tree-index';
import { refind } from './locate';
import { rereadNode } from './reread';
import type { Look } from './settle';
import type { TargetTree } from './targeting';

/** Roles whose checked state is what a click is for; on any other role it is a press showing. */
const CHECKABLE = new Set<Role>(['checkbox', 'radio', 'switch', 'togglebutton', 'menuitem']);
const WINDOW_ROLES = new Set<Role>(['window', 'dialog']);
/** Changes elsewhere named in a result: enough to show the evidence, short enough for a model. */
const ELSEWHERE_LIMIT = 3;

export interface VerifyContext {
  accessibility: AccessibilityBackend;
  observe: (options: TreeOptions) => Promise<BuiltTree>;
  request: UiActionRequest;
  resolved: TargetTree & { target: IndexedNode | undefined; destination: IndexedNode | undefined };
  method: ActionMethod;
}

/**
 * A change that is not the action's effect, only a sign it was received: a button shown
 * pressed for a moment (GTK 4 sets `checked` on a pushed button before it fires, about 250 ms
 * later), or a button or check box taking focus because it was clicked. The wait goes on past these.
 */
export function isTransient(request: UiActionRequest, node: UiNode, change: string): boolean {
  // Text typed or set shows as text: the field taking focus first is no sign it arrived (a sheet
  // cell is focused at once and shows its text only once the app commits it). A secret field
  // shows no text, so there the focus is all the evidence there is.
  if (request.action === 'type' || request.action === 'set_value') return change.startsWith('states.focused:') && node.states.secret !== true;
  if (request.action !== 'click' && request.action !== 'key') return false;
  if (change.startsWith('states.checked:')) return !CHECKABLE.has(node.role);
  // A check box is focused by its click at once and shows its new state only later (Firefox
  // sends the state from its content process, late on a loaded machine): only the state is the effect.
  return change.startsWith('states.focused:') && (node.role === 'button' || node.role === 'link' || CHECKABLE.has(node.role));
}

function resultOf(context: VerifyContext, nodeAfter: UiNode | undefined, changes: string[], outcome: ActionOutcome): UiActionResult {
  const { request, resolved, method } = context;
  const before = request.action === 'drag' ? resolved.destination : resolved.target;
  return {
    success: true,
    method,
    nodeBefore: before === undefined ? null : shallow(before.node),
    nodeAfter: nodeAfter === undefined ? null : shallow(nodeAfter),
    changed: changes.length > 0,
    changes,
    outcome,
  };
}

/** The window or dialog a node sits in: its nearest such ancestor, or else the app's child it hangs under. */
function windowOf(index: Map<string, IndexedNode>, entry: IndexedNode): IndexedNode | undefined {
  let top: IndexedNode | undefined;
  for (
    let current: IndexedNode | undefined = entry;
    current !== undefined;
    current = current.parentId === undefined ? undefined : index.get(current.parentId)
  ) {
    if (WINDOW_ROLES.has(current.node.role)) return current;
    if (current.depth === 1) top = current;
  }
  return top;
}

/**
 * The evidence of an effect away from the acted-on node (a calculator's display after a key's
 * button): nodes present before and after whose own name, value or states changed, named;
 * `other` when something else moved (nodes added or removed, screen text repainted).
 * The acted-on node itself is left to the caller, whose transient changes are no evidence.
 */
function changesElsewhere(before: Map<string, IndexedNode>, after: UiNode, skip: string | undefined): { named: string[]; other: boolean } {
  const named: string[] = [];
  let other = false;
  let seen = 0;
  for (const entry of indexTree(after).values()) {
    const old = before.get(entry.node.id);
    if (old === undefined) {
      other = true;
      continue;
    }
    seen += 1;
    if (entry.node.id === skip || named.length >= ELSEWHERE_LIMIT) continue;
    const own = diffNodes(shallow(old.node), shallow(entry.node)).filter(isEvidenceElsewhere);
    if (own.length === 0) continue;
    // The screen-text group's description counts repaints: a change, but no evidence to name.
    if (entry.node.platformRole === 'ocr:screen') other = true;
    else named.push(`[${entry.node.id}] ${entry.node.role}${entry.node.name === '' ? '' : ` "${entry.node.name.slice(0, 40)}"`}: ${own.join('; ')}`);
  }
  return { named, other: other || seen !== before.size };
}

/**
 * Whether a change of a node other than the acted-on one may be the action's effect. Its
 * children are looked at as nodes of their own. A node losing focus is only the other side of
 * the click landing: a clicked GTK 4 check box takes the focus from a text field at once and
 * shows its checked state later, on a loaded machine after the first looks.
 */
export function isEvidenceElsewhere(change: string): boolean {
  return !change.startsWith('children:') && !change.startsWith('contents') && change !== 'states.focused: true → false';
}

function elsewhereWords(found: { named: string[]; other: boolean }): string[] {
  return found.named.length > 0 ? found.named : found.other ? ['the app changed elsewhere'] : [];
}

/**
 * One look at the app after an action. Final when the action's effect shows: a change of the
 * node that is more than a press showing, a change elsewhere for a click or key, the node's
 * window gone (`closed`), or the process gone (`exited`). Not final otherwise, and the engine
 * looks again until its bound; the last look is the answer.
 */
export async function lookOnce(context: VerifyContext): Promise<Look<UiActionResult>> {
  const { request, resolved } = context;
  const before = request.action === 'drag' ? resolved.destination : resolved.target;
  const waitsForElsewhere = request.action === 'click' || request.action === 'key';
  // A scroll may show nothing at all: it is looked at once.
  const once = request.action === 'scroll';
  try {
    // Re-reading just the node is enough when it changed, or when its own change is all that matters.
    const reread = before === undefined ? undefined : await rereadNode(context.accessibility, resolved.tree, before);
    if (before !== undefined && reread !== undefined) {
      const changes = diffNodes(before.node, reread);
      const strong = changes.some((change) => !isTransient(request, before.node, change));
      if (strong) return { value: resultOf(context, reread, changes, 'changed'), final: true };
      if (!waitsForElsewhere) return { value: resultOf(context, reread, changes, 'unchanged'), final: once };
    }
    const after = await context.observe({ bounds: 'none', fresh: true });
    if (before === undefined) {
      const elsewhere =
        subtreeDigest(resolved.tree.root) === subtreeDigest(after.root) ? [] : elsewhereWords(changesElsewhere(resolved.index, after.root, undefined));
      return { value: resultOf(context, undefined, elsewhere, elsewhere.length > 0 ? 'changed' : 'unchanged'), final: elsewhere.length > 0 };
    }
    const afterIndex = indexTree(after.root);
    const found = refind(after.root, before, resolved.index, afterIndex);
    if (found === undefined) {
      const window = windowOf(resolved.index, before);
      if (window !== undefined && !afterIndex.has(window.node.id)) {
        return { value: resultOf(context, undefined, [`the ${window.node.role} closed`], 'closed'), final: true };
      }
      return { value: resultOf(context, undefined, ['the node is gone from the tree'], 'changed'), final: true };
    }
    const changes = diffNodes(before.node, found);
    const strong = changes.some((change) => !isTransient(request, before.node, change));
    if (!strong && waitsForElsewhere && subtreeDigest(resolved.tree.root) !== subtreeDigest(after.root)) {
      const elsewhere = elsewhereWords(changesElsewhere(resolved.index, after.root, found.id));
      if (elsewhere.length > 0) return { value: resultOf(context, found, [...elsewhere, ...changes], 'changed'), final: true };
    }
    // A press showing and nothing else is no evidence: reported as no change when the wait ends here.
    const evidence = strong ? changes : [];
    return { value: resultOf(context, found, evidence, strong ? 'changed' : 'unchanged'), final: strong || once };
  } catch (error) {
    return afterFailedLook(context, before, error);
  }
}

/**
 * A look that could not read the app. A process that exited, or an app that left the
 * accessibility bus (its last window closed while the process winds down), means the acted-on
 * window closed: a success, in whichever order the app went. Any other failure of a click or
 * key may be the same going-away caught half-way: looked at again until the bound.
 */
function afterFailedLook(context: VerifyContext, before: IndexedNode | undefined, error: unknown): Look<UiActionResult> {
  const closed = before === undefined ? 'the window closed' : `the ${windowOf(context.resolved.index, before)?.node.role ?? 'window'} closed`;
  // The words callers have always read; `outcome` says the window closed with it.
  if (error instanceof ProcessExitedError) return { value: resultOf(context, undefined, ['the process exited'], 'closed'), final: true };
  const { request } = context;
  if (!(error instanceof DeskpilotError) || (request.action !== 'click' && request.action !== 'key')) throw error;
  // A broken desktop (the bus, the registry) is its own error; an app no longer registered is not.
  if (error instanceof UnsupportedOperationError && !(error instanceof UiNotAvailableError)) {
    return { value: resultOf(context, undefined, [closed, 'the app left the accessibility bus'], 'closed'), final: true };
  }
  const failed: UiActionResult = { ...resultOf(context, undefined, [], 'unchanged'), success: false, error: serializeError(error) };
  return { value: failed, final: false };
}

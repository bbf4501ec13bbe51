import type { RiskReason } from '../../shared/risk';
import type { UiNode } from '../../shared/ui-node';
import { findById, walk } from '../ui/tree-index';
import { activates, focusedNode, isTextEntry, keyRisk, parseCombo, pathTo } from './risk';

/** The ui_action fields the risk rules read, in the engine's canonical spelling. */
export interface ActionFacts {
  action: string;
  id?: string | undefined;
  toId?: string | undefined;
  key?: string | undefined;
  text?: string | undefined;
  modifiers?: string[] | undefined;
}

/**
 * Return in a dialog presses its default button, which the tree does not mark: when the dialog
 * around `node` has a button with risky text, Return there may press it, so it is judged as that.
 */
function dialogDefault(tree: UiNode, node: UiNode): RiskReason | undefined {
  const dialog = pathTo(tree, node.id)
    ?.reverse()
    .find((each) => each.role === 'dialog');
  if (dialog === undefined) return undefined;
  for (const each of walk(dialog)) {
    if (each.role !== 'button') continue;
    const risk = activates(each);
    if (risk !== undefined) return risk;
  }
  return undefined;
}

/** Whether a key or typed text presses Return: the key itself, or a line break in the text. */
function pressesReturn(args: ActionFacts, platform: string): boolean {
  if (args.action === 'type') return /[\r\n]/.test(args.text ?? '');
  const combo = args.key === undefined ? undefined : parseCombo(args.key, args.modifiers ?? [], platform);
  return combo?.key === 'return';
}

/**
 * Why a ui_action is risky, judged on the request as the engine will run it and on the node it
 * lands on: a click on a control with risky text, a key on one (or on the focused one, where
 * keys go when no id is given), a quit/close/delete combo, text typed into a control that is not
 * a text field (a space presses a button), and a drag dropped on a risky target (the trash).
 */
export function actionRisk(args: ActionFacts, tree: UiNode | undefined, platform: string): RiskReason | undefined {
  const node = args.id === undefined || tree === undefined ? undefined : findById(tree, args.id);
  switch (args.action) {
    case 'click':
      return node === undefined ? undefined : activates(node);
    case 'key': {
      const target = node ?? (args.id === undefined && tree !== undefined ? focusedNode(tree) : undefined);
      const risk = args.key === undefined ? undefined : keyRisk(args.key, args.modifiers ?? [], platform, target);
      if (risk !== undefined || target === undefined || tree === undefined || !pressesReturn(args, platform)) return risk;
      return dialogDefault(tree, target);
    }
    case 'type':
      if (node === undefined) return undefined;
      if (!isTextEntry(node)) return activates(node);
      return tree !== undefined && pressesReturn(args, platform) ? dialogDefault(tree, node) : undefined;
    case 'set_value':
      return node === undefined || isTextEntry(node) ? undefined : activates(node);
    case 'drag': {
      const destination = args.toId === undefined || tree === undefined ? undefined : findById(tree, args.toId);
      return destination === undefined ? undefined : activates(destination);
    }
    default:
      return undefined;
  }
}

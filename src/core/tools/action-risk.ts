import type { RiskReason } from '../../shared/risk';
import type { UiNode } from '../../shared/ui-node';
import { findById } from '../ui/tree-index';
import { activates, focusedNode, isTextEntry, keyRisk } from './risk';

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
      return args.key === undefined ? undefined : keyRisk(args.key, args.modifiers ?? [], platform, target);
    }
    case 'type':
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

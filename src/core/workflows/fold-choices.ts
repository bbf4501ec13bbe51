import type { UiNode } from '../../shared/ui-node';
import { itemText } from '../actions/choose-option';
import { findById, shallow } from '../ui/tree-index';
import { comboOf } from './record/choice';
import type { RecordedAction } from './recording-engine';

/**
 * Folds "click a combo box, then click an item of its open list" (how a combo box's set_value
 * runs, and how a person chooses) into one set_value on the box with the item's name: a step
 * that names the choice, so it can be a parameter and replays whatever the list looks like.
 */
export function foldChoices(actions: readonly RecordedAction[]): RecordedAction[] {
  const folded: RecordedAction[] = [];
  for (let index = 0; index < actions.length; index += 1) {
    const opened = actions[index] as RecordedAction;
    const chosen = actions[index + 1];
    const box = clicked(opened);
    const item = chosen === undefined ? undefined : clicked(chosen);
    if (box?.role === 'combobox' && chosen !== undefined && item !== undefined && chosen.pid === opened.pid) {
      const owner = comboOf(chosen.treeBefore, item);
      if (owner?.id === box.id) {
        const before = shallow(box);
        // GTK 4's rows are unnamed and hold a label: the choice is the text the row shows.
        const text = itemText(item);
        folded.push({
          ...opened,
          request: { action: 'set_value', id: box.id, value: text },
          result: { ...chosen.result, nodeBefore: before, nodeAfter: { ...before, value: text }, changed: true, changes: [`value: → ${JSON.stringify(text)}`] },
          windowsAfter: chosen.windowsAfter,
        });
        index += 1;
        continue;
      }
    }
    folded.push(opened);
  }
  return folded;
}

function clicked(action: RecordedAction): UiNode | undefined {
  const { request } = action;
  return request.action === 'click' && request.id !== undefined ? findById(action.treeBefore, request.id) : undefined;
}

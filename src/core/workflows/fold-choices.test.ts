import { describe, expect, it } from 'vitest';
import type { UiActionResult } from '../../shared/ui-action';
import type { UiNode } from '../../shared/ui-node';
import { workflowFromActions } from './from-actions';
import type { RecordedAction } from './recording-engine';

const states = { enabled: true, focused: false };
const node = (id: string, role: UiNode['role'], name: string, children?: UiNode[]): UiNode => ({
  id,
  role,
  platformRole: role,
  name,
  states,
  actions: [],
  ...(children === undefined ? {} : { children }),
});

function form(open: boolean): UiNode {
  const items = open ? [node('menu', 'menu', '', [node('free', 'menuitem', 'Free'), node('pro', 'menuitem', 'Pro')])] : [];
  return node('app', 'application', 'Form', [node('win', 'window', 'Sign up', [node('plan', 'combobox', 'Plan', items), node('save', 'button', 'Save')])]);
}

const ran: UiActionResult = { success: true, nodeBefore: null, nodeAfter: null, changed: true, changes: ['x'] };
const click = (id: string, tree: UiNode): RecordedAction => ({
  pid: 7,
  request: { action: 'click', id },
  treeBefore: tree,
  result: ran,
  windowsBefore: [],
  windowsAfter: [],
  exited: false,
});

describe('workflowFromActions and combo boxes', () => {
  it('saves "open the box, click its item" as one set_value naming the item, a parameter when the question said it', () => {
    const workflow = workflowFromActions([click('plan', form(false)), click('pro', form(true)), click('save', form(false))], {
      name: 'sign up',
      question: 'sign up on the Pro plan',
      app: {},
    });
    expect(workflow.steps.map((step) => step.action)).toEqual(['set_value', 'click']);
    expect(workflow.steps[0]).toMatchObject({ target: { role: 'combobox', name: 'Plan' }, value: '{{plan}}', expect: { value: '{{plan}}' } });
    expect(workflow.parameters).toEqual({ plan: { description: 'Plan (from the question)', default: 'Pro' } });
  });

  it("names a choice from GTK 4's drop-down, whose rows are unnamed, by the label the row shows", () => {
    const row = (id: string, text: string): UiNode => node(id, 'listitem', '', [node(`${id}-box`, 'group', '', [node(`${id}-label`, 'label', text)])]);
    const popover = node('pop', 'group', 'GtkPopover', [
      node('content', 'group', 'GtkPopoverContent', [
        node('wrap', 'group', '', [node('scroll', 'scrollarea', '', [node('list', 'list', '', [row('one', '1 minute'), row('five', '5 minutes')])])]),
      ]),
    ]);
    const tree = (open: boolean): UiNode =>
      node('app', 'application', 'Demo', [node('win', 'window', 'Selections', [node('wait', 'combobox', 'Wait', open ? [popover] : [])])]);
    const workflow = workflowFromActions([click('wait', tree(false)), click('five', tree(true))], { name: 'wait', app: {} });
    expect(workflow.steps).toHaveLength(1);
    expect(workflow.steps[0]).toMatchObject({ action: 'set_value', target: { role: 'combobox', name: 'Wait' } });
    expect(JSON.stringify(workflow)).toContain('5 minutes');
  });

  it('keeps clicks that are not a choice in a box as clicks', () => {
    const workflow = workflowFromActions([click('plan', form(false)), click('save', form(false))], { name: 'two clicks', app: {} });
    expect(workflow.steps.map((step) => step.action)).toEqual(['click', 'click']);
  });
});

import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { itemText, selectionOf, showsChoice, shownTexts } from './choose-option';

let next = 0;
function node(role: UiNode['role'], name: string, children: UiNode[] = [], extra: Partial<UiNode> = {}): UiNode {
  next += 1;
  return { id: `n${next}`, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], children, ...extra };
}

/** GTK 4's GtkDropDown as AT-SPI shows it: named by the label beside it, its choice a label in its button, its popup a list of unnamed rows. */
function dropDown(shown: string, open: boolean): UiNode {
  const rows = ['1 minute', '5 minutes'].map((text) => node('listitem', '', [node('group', '', [node('label', text)])]));
  const button = node('button', 'GtkToggleButton', [
    node('group', '', [
      node('group', 'GtkStackPage', [node('label', '(None)', [], { bounds: { x: 0, y: 0, width: 0, height: 0 } })]),
      node('group', '', [node('label', shown)]),
    ]),
  ]);
  const popup = node('group', 'GtkPopover', [node('scrollarea', '', [node('list', '', rows)])]);
  return node('combobox', 'Dropdowns', open ? [button, popup] : [button], { nameFrom: 'geometry' });
}

describe('what a combo box shows', () => {
  it("reads GTK 4's drop-down by the label in its button, not by the label that names it or its list's rows", () => {
    const box = dropDown('1 minute', true);
    expect(shownTexts(box)).toEqual(['1 minute']);
    expect(selectionOf(box)).toBe('1 minute');
    expect(showsChoice(box, '1 minute')).toBe(true);
    expect(showsChoice(box, '5 minutes')).toBe(false);
    expect(showsChoice(box, 'Dropdowns')).toBe(false);
  });

  it("names an unnamed row by its label, and keeps a named item's own name", () => {
    expect(itemText(node('listitem', '', [node('group', '', [node('label', '5 minutes')])]))).toBe('5 minutes');
    expect(itemText(node('menuitem', 'Pro', [node('label', 'other')]))).toBe('Pro');
  });

  it("still reads GTK 3's box by its name and a value where the toolkit gives one", () => {
    expect(selectionOf(node('combobox', 'Team', [node('menu', '', [node('menuitem', 'Pro')])]))).toBe('Team');
    expect(selectionOf(node('combobox', 'Plan', [], { value: 'Pro', nameFrom: 'label' }))).toBe('Pro');
  });
});

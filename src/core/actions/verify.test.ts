import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend } from '../platform/types';
import { buildTree, type RawNode } from '../ui/ids';
import { indexTree } from '../ui/tree-index';
import { isEvidenceElsewhere, isTransient, lookOnce } from './verify';

function node(role: UiNode['role']): UiNode {
  return { id: 'abcde', role, platformRole: role, name: 'Subscribe', states: { enabled: true, focused: false }, actions: [], children: [] };
}

const click = { action: 'click', id: 'abcde' } as const;

describe('isTransient', () => {
  it("takes a check box's focus as no sign its click landed: only its checked state is the effect", () => {
    for (const role of ['checkbox', 'radio', 'switch', 'togglebutton', 'menuitem'] as const) {
      expect(isTransient(click, node(role), 'states.focused: false → true')).toBe(true);
      expect(isTransient(click, node(role), 'states.checked: false → true')).toBe(false);
    }
  });

  it('takes a pushed button shown checked, or focused, as a press showing; a text field focused by a click is an effect', () => {
    expect(isTransient(click, node('button'), 'states.checked: false → true')).toBe(true);
    expect(isTransient(click, node('button'), 'states.focused: false → true')).toBe(true);
    expect(isTransient(click, node('textfield'), 'states.focused: false → true')).toBe(false);
    expect(isTransient(click, node('button'), 'name: "Clicked 0 times" → "Clicked 1 time"')).toBe(false);
  });

  it('takes focus as no sign typed text arrived, except in a secret field', () => {
    const type = { action: 'type', id: 'abcde', text: 'x' } as const;
    expect(isTransient(type, node('textfield'), 'states.focused: false → true')).toBe(true);
    const secret = { ...node('textfield'), states: { enabled: true, focused: false, secret: true } };
    expect(isTransient(type, secret, 'states.focused: false → true')).toBe(false);
  });
});

describe('lookOnce after a click by input', () => {
  /** A window with a text field and a check box, as gtk4-widget-factory has them. */
  function app(fieldFocused: boolean, box: { focused: boolean; checked: boolean }): RawNode {
    const leaf = (role: UiNode['role'], name: string, states: UiNode['states']): RawNode => ({
      ref: name,
      role,
      platformRole: role,
      name,
      states,
      actions: [],
    });
    return {
      ...leaf('window', 'Factory', { enabled: true, focused: false }),
      children: [leaf('textarea', '', { enabled: true, focused: fieldFocused }), leaf('checkbox', 'Inconsistent', { enabled: true, ...box })],
    };
  }

  function context(after: RawNode): Parameters<typeof lookOnce>[0] {
    const tree = buildTree(app(true, { focused: false, checked: false }));
    const index = indexTree(tree.root);
    const target = [...index.values()].find((entry) => entry.node.role === 'checkbox');
    return {
      accessibility: {} as AccessibilityBackend,
      observe: () => Promise.resolve(buildTree(after)),
      request: { action: 'click', id: target?.node.id ?? '' },
      resolved: { tree, index, target, destination: undefined },
      method: 'input',
    };
  }

  it('takes the focus leaving another node as no effect, and waits on for the check box state', async () => {
    const early = await lookOnce(context(app(false, { focused: true, checked: false })));
    expect(early).toMatchObject({ final: false, value: { changed: false, changes: [] } });
    const late = await lookOnce(context(app(false, { focused: true, checked: true })));
    expect(late).toMatchObject({ final: true, value: { changed: true, nodeAfter: { states: { checked: true } } } });
  });

  it('still takes a node elsewhere gaining focus, or changing its value, as an effect', () => {
    expect(isEvidenceElsewhere('states.focused: true → false')).toBe(false);
    expect(isEvidenceElsewhere('states.focused: false → true')).toBe(true);
    expect(isEvidenceElsewhere('value: "0" → "7"')).toBe(true);
    expect(isEvidenceElsewhere('children: 2 → 3')).toBe(false);
  });
});

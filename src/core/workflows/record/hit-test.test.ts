import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { elementAt, popupLayers } from './hit-test';

const node = (id: string, role: UiNode['role'], name: string, extra: Partial<UiNode> = {}): UiNode => ({
  id,
  role,
  platformRole: role,
  name,
  states: { enabled: true, focused: false },
  actions: [],
  ...extra,
});
const box = (y: number, height = 30) => ({ bounds: { x: 0, y, width: 100, height } });

/** A check box nested deeper than the list's items, so the deepest node under the point is the box's label. */
const subscribe = (): UiNode =>
  node('g1', 'group', '', {
    ...box(60, 40),
    children: [
      node('g2', 'group', '', {
        ...box(60, 40),
        children: [node('sub', 'checkbox', 'Subscribe', { ...box(60), children: [node('lab', 'label', 'Subscribe', box(60))] })],
      }),
    ],
  });
const items = (extra: Partial<UiNode> = {}): UiNode[] => [
  node('free', 'menuitem', 'Free', { ...box(30), ...extra }),
  node('pro', 'menuitem', 'Pro', { ...box(60), ...extra }),
];

describe('elementAt with a popup over another control', () => {
  it('GTK 3: the open menu a combo box holds wins over the check box under it', () => {
    const tree = node('app', 'application', 'Form', {
      children: [
        node('win', 'window', 'Sign up', {
          children: [node('plan', 'combobox', 'Plan', { ...box(0), children: [node('menu', 'menu', '', { children: items() })] }), subscribe()],
        }),
      ],
    });
    expect(elementAt(tree, 50, 75)?.id).toBe('pro');
  });

  it('a shut menu whose items keep stale extents but are not showing leaves the check box', () => {
    const tree = node('app', 'application', 'Form', {
      children: [
        node('win', 'window', 'Sign up', {
          children: [
            node('plan', 'combobox', 'Plan', {
              ...box(0),
              children: [node('menu', 'menu', '', { children: items({ states: { enabled: true, focused: false, visible: false } }) })],
            }),
            subscribe(),
          ],
        }),
      ],
    });
    expect(elementAt(tree, 50, 75)?.id).toBe('sub');
  });

  it('a combo box that says it is collapsed has no open list, whatever extents its items keep', () => {
    const collapsed = { states: { enabled: true, focused: false, expanded: false } };
    const tree = node('app', 'application', 'Form', {
      children: [
        node('win', 'window', 'Sign up', {
          children: [node('plan', 'combobox', 'Plan', { ...box(0), ...collapsed, children: [node('list', 'list', '', { children: items() })] }), subscribe()],
        }),
      ],
    });
    expect(elementAt(tree, 50, 75)?.id).toBe('sub');
    // Qt 6 holds the open list in the box, which says it is expanded.
    const open = node('app', 'application', 'Form', {
      children: [
        node('win', 'window', 'Sign up', {
          children: [
            node('plan', 'combobox', 'Plan', {
              ...box(0),
              states: { enabled: true, focused: false, expanded: true },
              children: [node('list', 'list', '', { children: items() })],
            }),
            subscribe(),
          ],
        }),
      ],
    });
    expect(elementAt(open, 50, 75)?.id).toBe('pro');
  });

  it('Qt: the list in an untitled top-level popup window wins over the main window, newest popup first', () => {
    const list = (id: string, name: string) =>
      node(`${id}-w`, 'window', '', {
        ...box(30, 60),
        children: [node(`${id}-l`, 'list', '', { ...box(30, 60), children: [node(id, 'listitem', name, box(60))] })],
      });
    const tree = node('app', 'application', 'Form', {
      children: [
        node('win', 'window', 'Sign up', { ...box(0, 200), children: [node('plan', 'combobox', 'Plan', box(0)), subscribe()] }),
        list('old', 'Stale'),
        list('pro', 'Pro'),
      ],
    });
    expect(popupLayers(tree).map((layer) => layer.id)).toEqual(['pro-w', 'old-w']);
    expect(elementAt(tree, 50, 75)?.id).toBe('pro');
    // Outside every popup, the main window's control is the hit.
    expect(elementAt(tree, 50, 150)).toBeUndefined();
    expect(elementAt(tree, 50, 15)?.id).toBe('plan');
  });
});

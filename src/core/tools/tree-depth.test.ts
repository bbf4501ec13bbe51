import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { depthNotes, limitDepth } from './tree-depth';

function node(id: string, children: UiNode[] = []): UiNode {
  return {
    id,
    role: 'group',
    platformRole: 'panel',
    name: id,
    states: { enabled: true, focused: false },
    actions: [],
    ...(children.length > 0 ? { children } : {}),
  };
}

const tree = node('root', [node('a', [node('a1', [node('a1x')]), node('a2')]), node('b')]);

describe('limitDepth', () => {
  it('counts printed levels only: an unnamed wrapper is not a level, so a cut names a node the text shows', () => {
    const wrapper = (children: UiNode[]): UiNode => ({ ...node('', children), id: 'w1', name: '' });
    const app = node('app', [wrapper([wrapper([node('panel', [node('button')])])])]);
    const limited = limitDepth(app, 1);
    expect(limited.cuts).toEqual([{ id: 'panel', hidden: 1 }]);
  });

  it('counts the children a budgeted read did not reach in the cut, and drops their count from the copy', () => {
    const partial = node('root', [{ ...node('list', [node('item')]), childCount: 40 }]);
    const limited = limitDepth(partial, 1);
    expect(limited.cuts).toEqual([{ id: 'list', hidden: 40 }]);
    expect(limited.root.children?.[0]?.childCount).toBeUndefined();
  });

  it('keeps everything without a depth', () => {
    expect(limitDepth(tree, undefined)).toEqual({ root: tree, cuts: [] });
  });

  it('drops the levels below the depth and counts them per cut node', () => {
    const { root, cuts } = limitDepth(tree, 1);
    expect(root.children?.map((child) => child.id)).toEqual(['a', 'b']);
    expect(root.children?.[0]?.children).toBeUndefined();
    expect(cuts).toEqual([{ id: 'a', hidden: 3 }]);
    expect(limitDepth(tree, 0).cuts).toEqual([{ id: 'root', hidden: 5 }]);
    expect(tree.children?.[0]?.children).toHaveLength(2);
  });

  it('notes cuts biggest first, in the form serializeTree uses', () => {
    expect(depthNotes(limitDepth(tree, 2).cuts)).toEqual(['… depth limit: 1 more under a1']);
    const many = Array.from({ length: 40 }, (_unused, index) => ({ id: `n${index}`, hidden: index }));
    const notes = depthNotes(many);
    expect(notes[0]).toBe('… depth limit: 39 more under n39');
    expect(notes.at(-1)).toBe('… depth limit: 10 more cut subtrees');
  });
});

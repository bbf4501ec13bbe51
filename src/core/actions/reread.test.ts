import { describe, expect, it } from 'vitest';
import type { AccessibilityBackend } from '../platform/types';
import { diffNodes } from '../ui/diff';
import { buildTree, slotKey, type RawNode } from '../ui/ids';
import { indexTree, walk, type IndexedNode } from '../ui/tree-index';
import { rereadNode } from './reread';

function raw(role: RawNode['role'], name: string, children?: RawNode[]): RawNode {
  return { ref: `${role}:${name}`, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], ...(children ? { children } : {}) };
}

/** A backend whose readSubtree answers with the given subtree, whatever it is asked for. */
function backend(subtree: () => RawNode): AccessibilityBackend {
  const fail = (): never => {
    throw new Error('not used');
  };
  return { getTree: fail, press: fail, setValue: fail, focus: fail, readSubtree: () => Promise.resolve(subtree()) };
}

function entry(root: ReturnType<typeof buildTree>['root'], name: string): IndexedNode {
  const found = [...indexTree(root).values()].find((candidate) => candidate.node.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
}

// Found once by brute force (not in the test run): under window "App" this label's id is the
// unsalted id of button "OK" in group "Panel", so the whole tree salts OK.
const COLLIDING_LABEL = 'Title 6092518';
const panel = (okName = 'OK'): RawNode => raw('group', 'Panel', [raw('button', okName, [raw('image', 'Icon')]), raw('label', 'Hint')]);

describe('rereadNode', () => {
  it('re-reads a subtree with the ids the whole tree gave it', async () => {
    const tree = buildTree(raw('window', 'App', [raw('label', 'Title'), panel()]));
    const before = entry(tree.root, 'Panel');
    const reread = await rereadNode(backend(panel), tree, before);
    expect(reread).toBeDefined();
    expect([...walk(reread ?? tree.root)].map((node) => node.id)).toEqual([...walk(before.node)].map((node) => node.id));
    expect(diffNodes(before.node, reread ?? tree.root)).toEqual([]);
  });

  it('declines when the whole tree salted a node inside because of one outside', async () => {
    const tree = buildTree(raw('window', 'App', [raw('label', COLLIDING_LABEL), panel()]));
    expect(tree.salted).toBe(true);
    const before = entry(tree.root, 'Panel');
    // Read alone, OK would get the label's id, and the unchanged panel would look changed.
    const alone = buildTree(panel(), { parentSlot: slotKey('', 'window', 0), roleIndex: 0 });
    expect(alone.root.children?.[0]?.id).toBe(entry(tree.root, COLLIDING_LABEL).node.id);
    expect(diffNodes(before.node, alone.root)).toEqual(['contents changed']);
    expect(await rereadNode(backend(panel), tree, before)).toBeUndefined();
    // The salted node itself too: its re-read id would be the label's.
    expect(
      await rereadNode(
        backend(() => panel().children?.[0] as RawNode),
        tree,
        entry(tree.root, 'OK'),
      ),
    ).toBeUndefined();
  });

  it('declines when a renamed node now collides with a node outside the subtree', async () => {
    // The panel's OK was renamed after the read: its new id is the label's, which the whole tree gave the label.
    const tree = buildTree(raw('window', 'App', [raw('label', COLLIDING_LABEL), panel('Cancel')]));
    expect(tree.salted).toBe(false);
    expect(await rereadNode(backend(panel), tree, entry(tree.root, 'Panel'))).toBeUndefined();
  });

  it('declines when the node itself has a new id, or the re-read salted something', async () => {
    const tree = buildTree(raw('window', 'App', [raw('button', 'Clicked 0 times')]));
    expect(
      await rereadNode(
        backend(() => raw('button', 'Clicked 1 time')),
        tree,
        entry(tree.root, 'Clicked 0 times'),
      ),
    ).toBeUndefined();
    // Found offline too: in list "Rows" of window "App", these two rows' ids collide, so a re-read showing both salts one.
    const rows = (...names: string[]): RawNode =>
      raw(
        'list',
        'Rows',
        names.map((name) => raw('listitem', name)),
      );
    const listTree = buildTree(raw('window', 'App', [rows('Row 4098')]));
    expect(listTree.salted).toBe(false);
    expect(buildTree(rows('Row 4098', 'Row 35884'), { parentSlot: slotKey('', 'window', 0), roleIndex: 0 }).salted).toBe(true);
    expect(
      await rereadNode(
        backend(() => rows('Row 4098', 'Row 35884')),
        listTree,
        entry(listTree.root, 'Rows'),
      ),
    ).toBeUndefined();
    // Without the collision the same re-read answers.
    expect(
      await rereadNode(
        backend(() => rows('Row 4098', 'Row 2')),
        listTree,
        entry(listTree.root, 'Rows'),
      ),
    ).toBeDefined();
  });
});

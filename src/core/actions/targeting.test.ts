import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend } from '../platform/types';
import { buildTree, type RawNode } from '../ui/ids';
import { indexTree } from '../ui/tree-index';
import { intersect } from '../platform/window-image';
import { visiblePoint } from './targeting';

const raw = (role: RawNode['role'], name: string, bounds: UiNode['bounds'] | undefined, children: RawNode[] = []): RawNode => ({
  ref: name,
  role,
  platformRole: role,
  name,
  states: { enabled: true, focused: false },
  actions: [],
  ...(bounds === undefined ? {} : { bounds }),
  children,
});

function setup(withBounds: boolean) {
  const list = raw('list', 'Items', withBounds ? { x: 300, y: -400, width: 200, height: 5800 } : undefined, [raw('listitem', 'Item 1', undefined)]);
  const tree = buildTree(
    raw('window', 'App', { x: 0, y: 0, width: 800, height: 600 }, [raw('scrollarea', '', { x: 300, y: 20, width: 200, height: 300 }, [list])]),
  );
  return { tree, index: indexTree(tree.root) };
}

const lazy = (reads: string[]): AccessibilityBackend => ({
  getTree: () => Promise.reject(new Error('unused')),
  press: () => Promise.resolve(false),
  setValue: () => Promise.resolve(),
  focus: () => Promise.resolve(false),
  bounds: (ref) => {
    reads.push(String(ref));
    return Promise.resolve(ref === 'Items' ? { x: 300, y: -400, width: 200, height: 5800 } : undefined);
  },
});

describe('visiblePoint', () => {
  it('aims at the visible part of a list taller than its viewport', async () => {
    const target = setup(true);
    const list = [...target.index.values()].find((entry) => entry.node.name === 'Items')?.node as UiNode;
    expect(await visiblePoint(lazy([]), target, list)).toEqual({ x: 400, y: 170 });
  });

  it('reads missing bounds on demand, for the node and its clipping ancestors only', async () => {
    const reads: string[] = [];
    const target = setup(false);
    const list = [...target.index.values()].find((entry) => entry.node.name === 'Items')?.node as UiNode;
    expect(await visiblePoint(lazy(reads), target, list)).toEqual({ x: 400, y: 170 });
    expect(reads).toEqual(['Items']);
  });

  it('aims at a node on screen whatever its showing flag, ignoring an ancestor with unknown extents', async () => {
    const box: RawNode = {
      ...raw('checkbox', 'Subscribe', { x: 40, y: 300, width: 20, height: 20 }),
      states: { enabled: true, focused: false, visible: false },
    };
    const tree = buildTree(
      raw('window', 'Firefox', { x: 0, y: 0, width: 800, height: 600 }, [raw('scrollarea', '', { x: -1, y: -1, width: -1, height: -1 }, [box])]),
    );
    const target = { tree, index: indexTree(tree.root) };
    const node = [...target.index.values()].find((entry) => entry.node.name === 'Subscribe')?.node as UiNode;
    expect(await visiblePoint(lazy([]), target, node)).toEqual({ x: 50, y: 310 });
  });

  it('still says a node scrolled out of its list is not on screen', async () => {
    const item = raw('listitem', 'Far', { x: 300, y: 900, width: 200, height: 20 });
    const tree = buildTree(
      raw('window', 'App', { x: 0, y: 0, width: 800, height: 1200 }, [raw('list', 'Items', { x: 300, y: 20, width: 200, height: 300 }, [item])]),
    );
    const target = { tree, index: indexTree(tree.root) };
    const node = [...target.index.values()].find((entry) => entry.node.name === 'Far')?.node as UiNode;
    await expect(visiblePoint(lazy([]), target, node)).rejects.toThrow(/not on screen/);
  });

  it('intersects rectangles, empty when apart', () => {
    expect(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: 5, width: 10, height: 10 })).toEqual({ x: 5, y: 5, width: 5, height: 5 });
    expect(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 0, width: 5, height: 5 }).width).toBe(0);
  });
});

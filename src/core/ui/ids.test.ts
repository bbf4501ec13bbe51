import { describe, expect, it } from 'vitest';
import type { RawNode } from './ids';
import { ID_LENGTH, buildTree, fnv1a, nodeId, slotKey } from './ids';
import { walk } from './tree-index';

function raw(role: RawNode['role'], name: string, children?: RawNode[]): RawNode {
  return { ref: `${role}:${name}`, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], ...(children ? { children } : {}) };
}

function idOf(tree: ReturnType<typeof buildTree>, name: string): string {
  for (const node of walk(tree.root)) if (node.name === name) return node.id;
  throw new Error(`no ${name}`);
}

describe('fnv1a', () => {
  it('matches the published 32-bit FNV-1a vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('nodeId', () => {
  it('is five lowercase letters and depends on the parent slot, role, name and index', () => {
    const id = nodeId('p', 'button', 'OK', 0);
    expect(id).toMatch(/^[a-z]{5}$/);
    expect(ID_LENGTH).toBe(5);
    // Short hashes are padded, so every id has the same length.
    const lengths = new Set(Array.from({ length: 2000 }, (_unused, index) => nodeId('p', 'listitem', `Item ${index}`, index).length));
    expect([...lengths]).toEqual([5]);
    expect(nodeId('q', 'button', 'OK', 0)).not.toBe(id);
    expect(nodeId('p', 'checkbox', 'OK', 0)).not.toBe(id);
    expect(nodeId('p', 'button', 'OK!', 0)).not.toBe(id);
    expect(nodeId('p', 'button', 'OK', 1)).not.toBe(id);
    expect(nodeId('p', 'button', 'OK', 0)).toBe(id);
  });
});

describe('buildTree', () => {
  const tree = () => raw('window', 'App', [raw('button', 'Save'), raw('button', 'Save'), raw('label', 'Status'), raw('group', '', [raw('textfield', 'Name')])]);

  it('gives every node a unique id and keeps refs by id', () => {
    const built = buildTree(tree());
    const ids = [...walk(built.root)].map((node) => node.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(built.refs.get(idOf(built, 'Name'))).toBe('textfield:Name');
    expect(built.root.children?.[0]).not.toHaveProperty('ref');
    expect(built.salted).toBe(false);
  });

  it('keeps ids when an unrelated part of the tree changes', () => {
    const before = buildTree(tree());
    const changed = tree();
    changed.children?.splice(2, 1, raw('label', 'Saved!'), raw('image', 'logo'));
    const after = buildTree(changed);
    expect(idOf(after, 'Name')).toBe(idOf(before, 'Name'));
    const saves = (built: typeof before) => built.root.children?.slice(0, 2).map((node) => node.id);
    expect(saves(after)).toEqual(saves(before));
  });

  it('never gives two nodes the same id, even when their hashes collide, and is deterministic about it', () => {
    // Two sibling buttons whose five-character ids collide (the birthday bound makes the search quick).
    const parentSlot = slotKey('', 'window', 0);
    const atFirst = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let index = 0; pair === undefined && index < 200_000; index += 1) {
      atFirst.set(nodeId(parentSlot, 'button', `Row ${index}`, 0), `Row ${index}`);
      const match = atFirst.get(nodeId(parentSlot, 'button', `Col ${index}`, 1));
      if (match !== undefined) pair = [match, `Col ${index}`];
    }
    if (pair === undefined) throw new Error('no collision found');
    const [first, second] = pair;
    const colliding = (): RawNode => raw('window', 'App', [raw('button', first), raw('button', second)]);
    const built = buildTree(colliding());
    expect(built.root.id).toBe(nodeId('', 'window', 'App', 0));
    const [a, b] = built.root.children ?? [];
    expect(a?.id).toBe(nodeId(parentSlot, 'button', first, 0));
    expect(b?.id).not.toBe(a?.id);
    expect(b?.id).toMatch(/^[a-z]{5}$/);
    expect(built.refs.get(b?.id ?? '')).toBe(`button:${second}`);
    expect(built.salted).toBe(true);
    expect(buildTree(colliding()).root.children?.map((node) => node.id)).toEqual([a?.id, b?.id]);
  });

  it('says when a subtree read alone cannot match the whole tree: the salted node, not its descendants', () => {
    // Found once by brute force (not here): under window "App" this label's id is the
    // unsalted id of button "OK" in group "Panel", and the label comes first.
    const label = 'Title 6092518';
    const whole = buildTree(raw('window', 'App', [raw('label', label), raw('group', 'Panel', [raw('button', 'OK', [raw('image', 'Icon')])])]));
    expect(whole.salted).toBe(true);
    const panel = whole.root.children?.[1];
    const alone = buildTree(raw('group', 'Panel', [raw('button', 'OK', [raw('image', 'Icon')])]), { parentSlot: slotKey('', 'window', 0), roleIndex: 0 });
    expect(alone.salted).toBe(false);
    expect(alone.root.id).toBe(panel?.id);
    // Alone, OK takes the label's id; its child hashes OK's slot, not OK's id, so it keeps its own.
    expect(alone.root.children?.[0]?.id).toBe(whole.root.children?.[0]?.id);
    expect(idOf(alone, 'Icon')).toBe(idOf(whole, 'Icon'));
  });

  it("keeps every id under a node whose name changes: ancestors' names never take part", () => {
    const doc = (title: string): RawNode =>
      raw('window', title, [raw('menubar', '', [raw('menuitem', 'File')]), raw('scrollarea', '', [raw('textarea', '')]), raw('window', 'Find')]);
    const before = buildTree(doc('Untitled 1 - Mousepad'));
    const after = buildTree(doc('*Untitled 1 - Mousepad'));
    expect(after.root.id).not.toBe(before.root.id);
    const ids = (built: typeof before) => [...walk(built.root)].slice(1).map((node) => node.id);
    expect(ids(after)).toEqual(ids(before));
    // A renamed node is a new id, so an old id never names it silently.
    expect(new Set([...ids(before), before.root.id]).has(after.root.id)).toBe(false);
  });

  it('counts the index among same-role siblings only', () => {
    const before = buildTree(tree());
    const withLabel = tree();
    withLabel.children?.unshift(raw('label', 'Title'));
    expect(buildTree(withLabel).root.children?.[1]?.id).toBe(before.root.children?.[0]?.id);
  });
});

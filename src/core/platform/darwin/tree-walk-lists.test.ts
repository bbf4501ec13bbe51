import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import { harness } from './testing/setup';
import { button, sampleApp, type FakeNode } from './testing/fake-world';
import { CHILD_PAGE, type MacRef } from './tree-walk';

function find(node: RawNode, predicate: (node: RawNode) => boolean): RawNode | undefined {
  if (predicate(node)) return node;
  for (const child of node.children ?? []) {
    const found = find(child, predicate);
    if (found !== undefined) return found;
  }
  return undefined;
}

function count(node: RawNode): number {
  return 1 + (node.children ?? []).reduce((sum, child) => sum + count(child), 0);
}

const widgets = (app: ReturnType<typeof sampleApp>) => app.windows[0]?.children as FakeNode[];
const asked = (call: { args: unknown[] }) => call.args[1] as string[];

describe('darwin tree walk: big lists (issue 20, point 3)', () => {
  it('a list in a scroll area is counted, then paged, and no batch ever asks for its children: no messaging timeout spent', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 300 });
    const list = find(tree, (node) => node.role === 'list') as RawNode;
    expect(list.childCount).toBe(1000);
    // Nodes before the list: the app, its window, seven widgets, the scroll area and the list itself.
    expect(count(tree)).toBe(300);
    expect(list.children?.length).toBeGreaterThan(CHILD_PAGE);
    // The fake's list takes any batch that asks for AXChildren down after the whole timeout.
    expect(test.fake.timeoutsSpent).toBe(0);
    const names = test.fake.calls.filter((call) => call.name.startsWith('AXUIElement')).map((call) => call.name);
    const counted = names.indexOf('AXUIElementGetAttributeValueCount');
    expect(counted).toBeGreaterThan(0);
    expect(names.indexOf('AXUIElementCopyAttributeValues')).toBeGreaterThan(counted);
    await test.finish();
  });

  it('readSubtree on a list pages it from the start, its role known from the ref', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    const list = find(tree, (node) => node.role === 'list') as RawNode<MacRef>;
    const before = test.fake.callsOf('AXUIElementCopyMultipleAttributeValues').length;
    const subtree = (await test.platform.accessibility.readSubtree?.(list.ref, {} as UiNode, 50)) as RawNode;
    expect(subtree).toMatchObject({ role: 'list', childCount: 1000 });
    expect(subtree.children?.[0]?.children?.[0]).toMatchObject({ role: 'label', name: 'Item 0' });
    const listBatch = test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')[before];
    expect(asked(listBatch as { args: unknown[] })).not.toContain('AXChildren');
    expect(test.fake.timeoutsSpent).toBe(0);
    await test.finish();
  });

  it('readSubtree on a slow list of unknown role is retried without AXChildren at the root of the read, not failed', async () => {
    const app = sampleApp();
    widgets(app).unshift({ role: 'AXGroup', title: 'Feed', slowChildren: true, children: [button('Older'), button('Newer')] });
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 4 });
    const feed = find(tree, (node) => node.name === 'Feed') as RawNode<MacRef>;
    const subtree = (await test.platform.accessibility.readSubtree?.(feed.ref, {} as UiNode, 10)) as RawNode;
    expect(subtree.children?.map((child) => child.name)).toEqual(['Older', 'Newer']);
    await test.finish();
  });

  it('AXChildren reported unsupported is read through the ranged copy (vimac #386), not taken as no children', async () => {
    const app = sampleApp();
    widgets(app).unshift({ role: 'AXGroup', title: 'Shelf', childrenUnsupported: true, children: [button('Book one'), button('Book two')] });
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 12 });
    const shelf = find(tree, (node) => node.name === 'Shelf') as RawNode;
    expect(shelf.children?.map((child) => child.name)).toEqual(['Book one', 'Book two']);
    expect((shelf.children?.[1]?.ref as MacRef).path).toEqual([0, 0, 1]);
    // The count says unsupported too: the page was asked without it.
    expect(test.fake.callsOf('AXUIElementGetAttributeValueCount')).toEqual([]);
    expect(test.fake.callsOf('AXUIElementCopyAttributeValues')[0]?.args.slice(1, 3)).toEqual(['AXChildren', 0]);
    await test.finish();
  });
});

describe('darwin tree walk: what a batch holds', () => {
  it('reads a batch shorter than the names it asked for up to its end, never past it (issue 20, point 8)', async () => {
    const app = sampleApp();
    // Three slots: AXRole, AXSubrole, AXTitle. The fake throws on an index past the end, as CF would misbehave.
    widgets(app).unshift(button('Short', { batchShort: 3 }));
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 5 });
    expect(find(tree, (node) => node.name === 'Short')).toMatchObject({ role: 'button', states: { enabled: true } });
    await test.finish();
  });

  it("never lets a secure field's value cross into this process: no batch asks for AXValue (issue 20, point 5)", async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 20 });
    for (const call of test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')) expect(asked(call)).not.toContain('AXValue');
    expect(test.fake.valuesServed).not.toContain('hunter2');
    // Plain fields, labels and controls still show their values, read one by one.
    expect(find(tree, (node) => node.name === 'Name')?.value).toBe('Ada');
    expect(find(tree, (node) => node.name === 'Volume')?.value).toBe(0.5);
    expect(find(tree, (node) => node.role === 'label')?.name).toBe('Read only');
    await test.finish();
  });

  it('names an icon-only button after its AXHelp and an unlabelled field after its placeholder (issue 20, point 9)', async () => {
    const app = sampleApp();
    widgets(app).unshift(
      { role: 'AXButton', help: 'Share this note', actions: ['AXPress'] },
      { role: 'AXTextField', placeholder: 'Search', settable: ['AXValue'] },
    );
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 5 });
    const [share, search] = tree.children?.[0]?.children ?? [];
    expect(share).toMatchObject({ role: 'button', name: 'Share this note' });
    expect(search).toMatchObject({ role: 'textfield', name: 'Search', placeholder: 'Search' });
    await test.finish();
  });

  it('takes a CFNumber 0/1 for AXEnabled and AXFocused as the boolean it stands for (issue 20, point 9)', async () => {
    const app = sampleApp();
    widgets(app).unshift(button('Off', { numericFlags: true, enabled: false }), button('Here', { numericFlags: true, focused: true }));
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 5 });
    expect(find(tree, (node) => node.name === 'Off')).toMatchObject({ states: { enabled: false }, actions: [] });
    expect(find(tree, (node) => node.name === 'Here')).toMatchObject({ states: { enabled: true, focused: true } });
    await test.finish();
  });
});

import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import { AXError } from './ax-errors';
import { harness } from './testing/setup';
import { NODE_ATTRIBUTES } from './tree-walk';
import { sampleApp, type FakeNode } from './testing/fake-world';

function find(node: RawNode, name: string): RawNode | undefined {
  if (node.name === name) return node;
  for (const child of node.children ?? []) {
    const found = find(child, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

const widgets = (app: ReturnType<typeof sampleApp>) => app.windows[0]?.children as FakeNode[];

describe('darwin tree walk: secure fields', () => {
  it.each([
    ['an error', AXError.CannotComplete, undefined],
    ['CFNull, and the single read fails too', 'null' as const, AXError.Failure],
  ])('a text field whose subrole slot holds %s is treated as secure', async (_label, slot, readError) => {
    const app = sampleApp();
    const field: FakeNode = { role: 'AXTextField', subrole: 'AXSecureTextField', title: 'PIN', value: 'pin-1234', batchSlots: { AXSubrole: slot } };
    if (readError !== undefined) field.readErrors = { AXSubrole: readError };
    widgets(app).splice(0, 0, field);
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 20 });
    expect(find(tree, 'PIN')).toMatchObject({ role: 'textfield', states: { secret: true } });
    expect(find(tree, 'PIN')?.value).toBeUndefined();
    expect(test.fake.stringsRead).not.toContain('pin-1234');
    // A plain text field without a subrole still shows its text.
    expect(find(tree, 'Name')?.value).toBe('Ada');
    await test.finish();
  });

  it('never reads the children of a secure field', async () => {
    const app = sampleApp();
    widgets(app)[4]!.children = [{ role: 'AXStaticText', value: 'hunter2-echo' }];
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 20 });
    expect(find(tree, 'Password')?.children).toBeUndefined();
    expect(test.fake.stringsRead).not.toContain('hunter2-echo');
    await test.finish();
  });
});

describe('darwin tree walk: one bad node', () => {
  it('a node whose batch times out is read again without AXChildren, its children paged', async () => {
    const app = sampleApp();
    const group: FakeNode = { role: 'AXGroup', title: 'Slow', batchError: AXError.CannotComplete, children: [{ role: 'AXButton', title: 'Inner' }] };
    widgets(app).splice(0, 0, group);
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 20 });
    expect(find(tree, 'Slow')?.children?.map((child) => child.name)).toEqual(['Inner']);
    expect(find(tree, 'Inner')?.ref).toMatchObject({ path: [0, 0, 0] });
    expect(find(tree, 'Save')).toBeDefined();
    const sizes = test.fake.callsOf('AXUIElementCopyMultipleAttributeValues').map((call) => (call.args[1] as string[]).length);
    // Batches without AXChildren: the app root (it reads AXWindows), the slow group's retry, and the list under the scroll area.
    expect(sizes.filter((size) => size === NODE_ATTRIBUTES.length - 1)).toHaveLength(3);
    expect(test.fake.timeoutsSpent).toBe(1);
    await test.finish();
  });

  it('a node that fails even without AXChildren is skipped; the rest of the tree is kept', async () => {
    const app = sampleApp();
    widgets(app).splice(1, 0, { role: 'AXGroup', title: 'Broken', batchError: AXError.Failure, batchErrorAlways: true });
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 20 });
    expect(find(tree, 'Broken')).toBeUndefined();
    expect(['Save', 'Custom', 'Bold', 'Volume'].map((name) => find(tree, name)?.name)).toEqual(['Save', 'Custom', 'Bold', 'Volume']);
    await test.finish();
  });

  it('nodes that keep timing out fail the read with TIMEOUT instead of costing two timeouts each', async () => {
    const app = sampleApp();
    const slow = (): FakeNode => ({ role: 'AXGroup', batchError: AXError.CannotComplete, batchErrorAlways: true });
    widgets(app).splice(0, 0, slow(), slow(), slow());
    const test = await harness([app]);
    await expect(test.platform.accessibility.getTree(501, { maxNodes: 20 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await test.finish();
  });

  it('the app root timing out is still TIMEOUT', async () => {
    const test = await harness([{ ...sampleApp(), hung: true }]);
    await expect(test.platform.accessibility.getTree(501)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await test.finish();
  });
});

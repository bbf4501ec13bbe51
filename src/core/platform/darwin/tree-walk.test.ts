import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import { NODE_ATTRIBUTES, type MacRef } from './tree-walk';
import { harness } from './testing/setup';
import { sampleApp } from './testing/fake-world';

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

describe('darwin tree walk', () => {
  it('reads app → windows → widgets with normalized roles, bounds and path refs', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 50 });
    expect(tree).toMatchObject({ role: 'application', platformRole: 'AXApplication', name: 'Notes', ref: { pid: 501, path: [], axRole: 'AXApplication' } });
    const window = tree.children?.[0] as RawNode;
    expect(window).toMatchObject({
      role: 'window',
      platformRole: 'AXWindow/AXStandardWindow',
      name: 'Untitled',
      bounds: { x: 100, y: 50, width: 800, height: 600 },
    });
    const names = (window.children ?? []).map((child) => [child.role, child.name]);
    expect(names.slice(0, 7)).toEqual([
      ['button', 'Save'],
      ['button', 'Custom'],
      ['checkbox', 'Bold'],
      ['textfield', 'Name'],
      ['textfield', 'Password'],
      ['slider', 'Volume'],
      ['label', 'Read only'],
    ]);
    const bold = find(tree, (node) => node.name === 'Bold') as RawNode;
    expect(bold).toMatchObject({ value: 0, states: { enabled: true, focused: false, checked: false }, actions: ['press', 'focus'] });
    expect(find(tree, (node) => node.name === 'Name')).toMatchObject({
      value: 'Ada',
      states: { editable: true },
      ref: { path: [0, 3], axRole: 'AXTextField' },
    });
    expect(find(tree, (node) => node.name === 'Volume')).toMatchObject({ value: 0.5, role: 'slider' });
    // An icon button is named by its AXDescription, which is then not repeated as the description.
    const custom = find(tree, (node) => node.name === 'Custom') as RawNode;
    expect(custom).toMatchObject({ bounds: { x: 200, y: 20, width: 40, height: 40 } });
    expect(custom.description).toBeUndefined();
    await test.finish();
  });

  it('never decodes a secure text field value', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 50 });
    const password = find(tree, (node) => node.name === 'Password') as RawNode;
    expect(password.states.secret).toBe(true);
    expect(password.value).toBeUndefined();
    expect(password.platformRole).toBe('AXTextField/AXSecureTextField');
    expect(test.fake.stringsRead).not.toContain('hunter2');
    expect(JSON.stringify(tree)).not.toContain('hunter2');
    await test.finish();
  });

  it('makes one async CopyMultipleAttributeValues call per node, options 0, with every node attribute', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 40 });
    const batches = test.fake.callsOf('AXUIElementCopyMultipleAttributeValues');
    expect(batches).toHaveLength(count(tree));
    const withoutChildren = NODE_ATTRIBUTES.filter((name) => name !== 'AXChildren');
    for (const batch of batches) {
      expect(batch.async).toBe(true);
      expect(batch.args[2]).toBe(0);
    }
    // The app reads AXWindows, and the list under the scroll area is paged: neither batch asks for AXChildren.
    const short = batches.filter((batch) => (batch.args[1] as string[]).length !== NODE_ATTRIBUTES.length);
    expect(short.map((batch) => batch.args[1])).toEqual([withoutChildren, withoutChildren]);
    expect(batches[0]?.args[1]).toEqual(withoutChildren);
    expect(batches[1]?.args[1]).toEqual([...NODE_ATTRIBUTES]);
    // Both attribute-name arrays are built once for the whole walk, from CFStrings made at run time.
    expect(test.fake.callsOf('CFArrayCreate')).toHaveLength(2);
    expect(test.fake.callsOf('CFStringCreateWithCString').map((call) => call.args[1])).toEqual(expect.arrayContaining(['AXRole', 'AXChildren', 'AXWindows']));
    expect(
      test.fake.calls
        .filter(
          (call) =>
            call.name.startsWith('AXUIElement') &&
            call.name !== 'AXUIElementCreateApplication' &&
            call.name !== 'AXUIElementCreateSystemWide' &&
            call.name !== 'AXUIElementSetMessagingTimeout',
        )
        .every((call) => call.async),
    ).toBe(true);
    await test.finish();
  });

  it('names an untitled field after the element that labels it (AXTitleUIElement), and reads its placeholder', async () => {
    const app = sampleApp();
    const label = { role: 'AXStaticText', value: 'Email' };
    const widgets = app.windows[0]?.children ?? [];
    widgets.unshift(
      label,
      { role: 'AXTextField', titleElement: label, placeholder: 'you@example.com', settable: ['AXValue'] },
      { role: 'AXTextField', subrole: 'AXSecureTextField', titleElement: label, placeholder: 'secret hint', value: 'hunter2' },
    );
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 60 });
    const field = find(tree, (node) => node.role === 'textfield' && node.placeholder === 'you@example.com');
    expect(field).toMatchObject({ name: 'Email', nameFrom: 'label' });
    // A titled field keeps its own name; nothing is asked of a label it does not need.
    expect(find(tree, (node) => node.name === 'Name')?.nameFrom).toBeUndefined();
    const secure = find(tree, (node) => node.states.secret === true && node.name === 'Email');
    expect(secure?.placeholder).toBeUndefined();
    // The label's text is an owned copy, released with everything else (finish checks the heap).
    expect(test.fake.callsOf('AXUIElementCopyAttributeValue').some((call) => call.args[1] === 'AXValue')).toBe(true);
    await test.finish();
  });

  it('marks a value cut to the tree limit, and reads the whole of it on request', async () => {
    const app = sampleApp();
    const long = 'line of text\n'.repeat(500);
    app.windows[0]?.children?.unshift({ role: 'AXTextArea', title: 'Body', value: long, settable: ['AXValue'] });
    const test = await harness([app]);
    const { accessibility } = test.platform;
    const tree = await accessibility.getTree(501, { maxNodes: 60 });
    const body = find(tree, (node) => node.name === 'Body') as RawNode<MacRef>;
    expect(body).toMatchObject({ valueTruncated: true });
    expect(String(body.value)).toHaveLength(4000);
    const { ref, children: _children, ...node } = body;
    expect(await accessibility.readText?.(ref, { ...node, id: 'x' }, 10_000)).toBe(long.slice(0, 10_000));
    await test.finish();
  });

  it('pages a list the batch could not carry with ranged AXChildren copies, within the node cap', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 600 });
    expect(count(tree)).toBe(600);
    const list = find(tree, (node) => node.role === 'list') as RawNode;
    expect(list.childCount).toBe(1000);
    expect(test.fake.callsOf('AXUIElementGetAttributeValueCount').map((call) => call.args[1])).toEqual(['AXChildren']);
    const pages = test.fake.callsOf('AXUIElementCopyAttributeValues').map((call) => call.args.slice(1));
    expect(pages[0]).toEqual(['AXChildren', 0, 100]);
    expect(pages[1]).toEqual(['AXChildren', 100, 100]);
    for (const page of pages) expect(page[2] as number).toBeLessThanOrEqual(100);
    const row = list.children?.[150] as RawNode;
    expect((row.ref as MacRef).path).toEqual([0, 7, 0, 150]);
    expect(row.children?.[0]).toMatchObject({ role: 'label', name: 'Item 150' });
    await test.finish();
  });

  it('stops at the depth cap and says how many children were left out', async () => {
    const test = await harness([sampleApp()]);
    const tree = await test.platform.accessibility.getTree(501, { maxDepth: 1 });
    const window = tree.children?.[0] as RawNode;
    expect(window.children).toBeUndefined();
    expect(window.childCount).toBe(8);
    await test.finish();
  });

  it('sets a global messaging timeout, as a float of seconds, on the system-wide element', async () => {
    const test = await harness([sampleApp()]);
    const [call] = test.fake.callsOf('AXUIElementSetMessagingTimeout');
    expect(test.fake.heap.get(call?.args[0] as bigint)).toMatchObject({ kind: 'element', systemWide: true });
    expect(call?.args[1]).toBe(1.5);
    expect(test.fake.timeoutSeconds).toBe(1.5);
    await test.finish();
  });

  it('reads a non-ASCII string through CFStringGetCString when the fast pointer is NULL', async () => {
    const app = sampleApp();
    (app.windows[0] as { title: string }).title = 'Entwürfe — 📝';
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 3 });
    expect(tree.children?.[0]?.name).toBe('Entwürfe — 📝');
    await test.finish();
  });

  it('keeps AXIdentifier as the toolkit id a workflow finds the element by, and leaves out blank or generated ones', async () => {
    const app = sampleApp();
    const window = app.windows[0];
    const [save, custom, bold] = window?.children ?? [];
    if (save === undefined || custom === undefined || bold === undefined) throw new Error('sample app changed');
    save.identifier = 'saveDocumentButton';
    custom.identifier = '   ';
    bold.identifier = 'x'.repeat(500);
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 50 });
    expect(find(tree, (node) => node.name === 'Save')?.toolkitId).toBe('saveDocumentButton');
    expect(find(tree, (node) => node.name === 'Custom')?.toolkitId).toBeUndefined();
    expect(find(tree, (node) => node.name === 'Bold')?.toolkitId).toBeUndefined();
    await test.finish();
  });
});

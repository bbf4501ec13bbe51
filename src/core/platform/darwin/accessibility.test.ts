import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { buildTree, type RawNode } from '../../ui/ids';
import { FakeClock } from '../../clock';
import type { MacRef } from './tree-walk';
import { harness, type Harness } from './testing/setup';
import { sampleApp, type FakeNode } from './testing/fake-world';

async function nodeNamed(test: Harness, name: string): Promise<{ ref: MacRef; node: UiNode }> {
  const built = buildTree(await test.platform.accessibility.getTree(501, { maxNodes: 40 }));
  const stack: UiNode[] = [built.root];
  while (stack.length > 0) {
    const node = stack.pop() as UiNode;
    if (node.name === name) return { ref: built.refs.get(node.id) as MacRef, node };
    stack.push(...(node.children ?? []));
  }
  throw new Error(`no node ${name}`);
}

const widget = (app: ReturnType<typeof sampleApp>, index: number) => (app.windows[0]?.children ?? [])[index] as FakeNode;

describe('darwin actions', () => {
  it('click: AXPress when the element lists it, resolved again from its path', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const { ref, node } = await nodeNamed(test, 'Save');
    expect(await test.platform.accessibility.press(ref, node)).toBe(true);
    expect(widget(app, 0).log).toEqual(['perform AXPress']);
    const ranged = test.fake.callsOf('AXUIElementCopyAttributeValues').map((call) => call.args.slice(1));
    // The window by its key among all of AXWindows (window-key.ts), then one child per step.
    expect(ranged.slice(-2)).toEqual([
      ['AXWindows', 0, 200],
      ['AXChildren', 0, 1],
    ]);
    const perform = test.fake.callsOf('AXUIElementPerformAction')[0];
    expect(perform).toMatchObject({ args: [expect.any(BigInt), 'AXPress'], async: true });
    await test.finish();
  });

  it('click: false without AXPress, so the engine clicks the centre through CGEvent at the HID tap', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const engine = new ActionEngine({ platform: test.platform, clock: new FakeClock() });
    const tree = await engine.observe(501);
    const custom = (tree.root.children?.[0]?.children ?? []).find((child) => child.name === 'Custom') as UiNode;
    const result = await engine.run(501, { action: 'click', id: custom.id, settleMs: 0 });
    expect(result).toMatchObject({ success: true, method: 'input', driver: 'cgevent' });
    expect(test.nut.calls).toEqual([]);
    // The button pokes out above its window (y 50); the engine clicks the visible part's centre.
    const events = test.fake.delivered.map(({ tap, event }) => [tap, event.type, event.location]);
    expect(events).toEqual([
      [0, 5, { x: 220, y: 55 }],
      [0, 1, { x: 220, y: 55 }],
      [0, 2, { x: 220, y: 55 }],
    ]);
    expect(test.fake.posted[1]?.event.fields[1]).toBe(1);
    await test.finish();
  });

  it('set_value: a number on a slider is a CFNumber of type kCFNumberDoubleType holding a double', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const { ref, node } = await nodeNamed(test, 'Volume');
    await test.platform.accessibility.setValue(ref, node, 0.8);
    expect(test.fake.callsOf('CFNumberCreate')[0]?.args).toEqual([null, 13, [0.8]]);
    const set = test.fake.callsOf('AXUIElementSetAttributeValue').find((call) => call.args[1] === 'AXValue');
    expect(set).toMatchObject({ args: [expect.any(BigInt), 'AXValue', { kind: 'number', value: 0.8 }], async: true });
    expect(widget(app, 5).value).toBe(0.8);
    await test.finish();
  });

  it('set_value: a number for a text field goes as a CFString; a numeric string for a slider as a number', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const name = await nodeNamed(test, 'Name');
    await test.platform.accessibility.setValue(name.ref, name.node, 42);
    expect(widget(app, 3).value).toBe('42');
    const volume = await nodeNamed(test, 'Volume');
    await test.platform.accessibility.setValue(volume.ref, volume.node, '0.25');
    expect(widget(app, 5).value).toBe(0.25);
    await test.finish();
  });

  it('set_value: a number for a non-text element whose value is a string goes as a CFString', async () => {
    const app = sampleApp();
    app.windows[0]?.children?.splice(7, 0, { role: 'AXIncrementor', title: 'Size', value: '12 pt', settable: ['AXValue'] });
    const test = await harness([app]);
    const size = await nodeNamed(test, 'Size');
    expect(size.node.role).toBe('spinbutton');
    await test.platform.accessibility.setValue(size.ref, size.node, 14);
    expect(test.fake.callsOf('CFNumberCreate')).toHaveLength(0);
    expect(widget(app, 7).value).toBe('14');
    await test.finish();
  });

  it('focus: the caret goes after the whole text, not after the part the tree carries', async () => {
    const app = sampleApp();
    widget(app, 3).value = 'x'.repeat(5000);
    const test = await harness([app]);
    const { ref, node } = await nodeNamed(test, 'Name');
    expect(String(node.value).length).toBeLessThan(5000);
    expect(await test.platform.accessibility.focus(ref, node)).toBe(true);
    const range = test.fake.callsOf('AXUIElementSetAttributeValue').find((call) => call.args[1] === 'AXSelectedTextRange');
    expect(range?.args[2]).toMatchObject({ range: { location: 5000, length: 0 } });
    await test.finish();
  });

  it('set_value: NOT_SETTABLE when the attribute is not settable or the app rejects the value', async () => {
    const app = sampleApp();
    widget(app, 2).setResult = { AXValue: -25201 };
    const test = await harness([app]);
    const label = await nodeNamed(test, 'Read only');
    await expect(test.platform.accessibility.setValue(label.ref, label.node, 'x')).rejects.toMatchObject({ code: 'NOT_SETTABLE' });
    const bold = await nodeNamed(test, 'Bold');
    await expect(test.platform.accessibility.setValue(bold.ref, bold.node, 1)).rejects.toMatchObject({ code: 'NOT_SETTABLE', data: { axError: -25201 } });
    await test.finish();
  });

  it("focus: the element's window made main and raised, AXFocused = kCFBooleanTrue, then the caret goes to the end of the text", async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const { ref, node } = await nodeNamed(test, 'Name');
    expect(await test.platform.accessibility.focus(ref, node)).toBe(true);
    // The first set is the tree read's AXManualAccessibility on the app element.
    const sets = test.fake
      .callsOf('AXUIElementSetAttributeValue')
      .slice(1)
      .map((call) => call.args.slice(1));
    expect(sets).toEqual([
      ['AXMain', { kind: 'boolean', value: true }],
      ['AXFocused', { kind: 'boolean', value: true }],
      ['AXSelectedTextRange', { kind: 'axValue', type: 4, range: { location: 3, length: 0 } }],
    ]);
    expect(widget(app, 3).focused).toBe(true);
    expect(app.windows[0]?.log).toEqual(['set AXMain true', 'perform AXRaise']);
    const label = await nodeNamed(test, 'Save');
    expect(await test.platform.accessibility.focus(label.ref, label.node)).toBe(false);
    await test.finish();
  });

  it('bounds and readSubtree re-read one node from its path', async () => {
    const test = await harness([sampleApp()]);
    const { ref, node } = await nodeNamed(test, 'Save');
    expect(await test.platform.accessibility.bounds?.(ref, node)).toEqual({ x: 10, y: 20, width: 80, height: 24 });
    const subtree = (await test.platform.accessibility.readSubtree?.(ref, node, 10)) as RawNode;
    expect(subtree).toMatchObject({ role: 'button', name: 'Save', ref: { path: [0, 0] } });
    await test.finish();
  });

  it('readSubtree on the app root hands out AXWindows paths, which act on the right element', async () => {
    const test = await harness([sampleApp()]);
    const root = await test.platform.accessibility.getTree(501, { maxNodes: 3 });
    const subtree = (await test.platform.accessibility.readSubtree?.(root.ref, {} as UiNode, 5)) as RawNode;
    const window = subtree.children?.[0] as RawNode;
    expect(window).toMatchObject({ role: 'window', name: 'Untitled', ref: { path: [0], axRole: 'AXWindow' } });
    expect(await test.platform.accessibility.bounds?.(window.ref, {} as UiNode)).toEqual({ x: 100, y: 50, width: 800, height: 600 });
    await test.finish();
  });

  it('a path index past the end of a list that shrank is NODE_NOT_FOUND, not ACTION_FAILED (issue 20, point 9)', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const { ref, node } = await nodeNamed(test, 'Volume');
    app.windows[0]?.children?.splice(2);
    await expect(test.platform.accessibility.setValue(ref, node, 0.3)).rejects.toMatchObject({ code: 'NODE_NOT_FOUND' });
    await test.finish();
  });

  it('a node whose position now holds another role is NODE_NOT_FOUND, never acted on', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const { ref, node } = await nodeNamed(test, 'Save');
    app.windows[0]?.children?.unshift({ role: 'AXStaticText', value: 'New banner', actions: ['AXPress'] });
    await expect(test.platform.accessibility.press(ref, node)).rejects.toMatchObject({ code: 'NODE_NOT_FOUND' });
    app.windows[0]?.children?.splice(0);
    await expect(test.platform.accessibility.press(ref, node)).rejects.toMatchObject({ code: 'NODE_NOT_FOUND' });
    expect(test.fake.callsOf('AXUIElementPerformAction')).toHaveLength(0);
    await test.finish();
  });
});

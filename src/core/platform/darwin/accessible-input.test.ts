import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { harness, type Harness } from './testing/setup';
import { button, sampleApp, type FakeApp, type FakeNode } from './testing/fake-world';

/** The app is in the background (777 is in front): a silent action must leave it there. */
const USER_APP = 777;

async function setUp(app: FakeApp): Promise<{ test: Harness; engine: ActionEngine; id: (name: string, role?: string) => Promise<string> }> {
  // The sample's 1000-row list plays no part here; each engine run would read it twice.
  for (const window of app.windows) window.children = (window.children ?? []).filter((child) => child.role !== 'AXScrollArea');
  const test = await harness([app, { pid: USER_APP, name: 'Mail', windows: [] }], { focusedPid: USER_APP });
  const engine = new ActionEngine({ platform: test.platform, clock: new FakeClock() });
  const id = async (name: string, role?: string): Promise<string> => {
    const stack: UiNode[] = [(await engine.observe(app.pid)).root];
    while (stack.length > 0) {
      const node = stack.pop() as UiNode;
      if (node.name === name && (role === undefined || node.role === role)) return node.id;
      stack.push(...(node.children ?? []));
    }
    throw new Error(`no node ${name}`);
  };
  return { test, engine, id };
}

/** Nothing of the user's was taken: no event posted, no app activated, no window raised. */
function expectSilent(test: Harness, app: FakeApp): void {
  expect(test.fake.posted).toEqual([]);
  expect(test.nut.calls).toEqual([]);
  expect(app.appSets?.filter((name) => name === 'AXFrontmost') ?? []).toEqual([]);
  expect(app.windows.flatMap((window) => window.log ?? [])).toEqual([]);
  expect(test.fake.world.focusedPid).toBe(USER_APP);
}

function field(app: FakeApp, title: string): FakeNode {
  return (app.windows[0]?.children ?? []).find((child) => child.title === title) as FakeNode;
}

function withSelectedText(app: FakeApp): FakeApp {
  for (const child of app.windows[0]?.children ?? []) if (child.role === 'AXTextField') child.settable = [...(child.settable ?? []), 'AXSelectedText'];
  return app;
}

describe('darwin: typing and keys through accessibility first (issue 32, point 4)', () => {
  it('type: the text goes in at the caret through AXSelectedText, with the app left in the background', async () => {
    const app = withSelectedText(sampleApp());
    const { test, engine, id } = await setUp(app);
    const result = await engine.run(501, { action: 'type', id: await id('Name', 'textfield'), text: ' Lovelace', settleMs: 0 });
    expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true });
    expect(field(app, 'Name').value).toBe('Ada Lovelace');
    // A field not being edited is focused inside its app (no activation) with the caret at the end first.
    expect(field(app, 'Name').log).toEqual(['set AXFocused', 'set AXSelectedTextRange', 'set AXSelectedText']);
    expectSilent(test, app);
    await test.finish();
  });

  it('type: in a field being edited, the text replaces the selection, as typing would', async () => {
    const app = withSelectedText(sampleApp());
    Object.assign(field(app, 'Name'), { focused: true, value: 'Ada King', selection: { location: 4, length: 4 } });
    const { test, engine, id } = await setUp(app);
    const result = await engine.run(501, { action: 'type', id: await id('Name', 'textfield'), text: 'Lovelace', settleMs: 0 });
    expect(result).toMatchObject({ method: 'accessibility' });
    expect(field(app, 'Name').value).toBe('Ada Lovelace');
    expect(field(app, 'Name').log).toEqual(['set AXSelectedText']);
    expectSilent(test, app);
    await test.finish();
  });

  it('type: an app that takes the set and changes nothing is typed into with CGEvent, once', async () => {
    const app = withSelectedText(sampleApp());
    field(app, 'Name').ignoresSelectedText = true;
    const { test, engine, id } = await setUp(app);
    const result = await engine.run(501, { action: 'type', id: await id('Name', 'textfield'), text: 'x', settleMs: 0 });
    expect(result).toMatchObject({ method: 'input', driver: 'cgevent' });
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.unicode)).toEqual(['x']);
    await test.finish();
  });

  it('type: without AXSelectedText, and always for a secure field, CGEvent is the fallback', async () => {
    const app = withSelectedText(sampleApp());
    field(app, 'Password').settable = ['AXValue', 'AXFocused', 'AXSelectedText'];
    const { test, engine, id } = await setUp(app);
    const secret = await engine.run(501, { action: 'type', id: await id('Password'), text: 'pw', settleMs: 0 });
    expect(secret).toMatchObject({ method: 'input' });
    expect(field(app, 'Password').log?.filter((entry) => entry === 'set AXSelectedText') ?? []).toEqual([]);
    field(app, 'Name').settable = ['AXValue', 'AXFocused'];
    expect(await engine.run(501, { action: 'type', id: await id('Name', 'textfield'), text: 'q', settleMs: 0 })).toMatchObject({ method: 'input' });
    await test.finish();
  });

  it("key: Return is the focused field's AXConfirm", async () => {
    const app = sampleApp();
    Object.assign(field(app, 'Name'), { actions: ['AXConfirm'] });
    const { test, engine, id } = await setUp(app);
    const result = await engine.run(501, { action: 'key', id: await id('Name', 'textfield'), key: 'Enter', settleMs: 0 });
    expect(result).toMatchObject({ success: true, method: 'accessibility' });
    expect(field(app, 'Name').log).toEqual(['perform AXConfirm']);
    expectSilent(test, app);
    await test.finish();
  });

  it("key: Return presses the dialog's default button, Escape its cancel button, when the focused control has no action of its own", async () => {
    const ok = button('OK');
    const cancel = button('Cancel');
    const dialog: FakeNode = {
      role: 'AXWindow',
      subrole: 'AXDialog',
      title: 'Replace?',
      children: [{ role: 'AXCheckBox', title: 'Always', value: 0, focused: true, actions: ['AXPress'] }, cancel, ok],
      defaultButton: ok,
      cancelButton: cancel,
    };
    const app: FakeApp = { ...sampleApp(), windows: [dialog] };
    const { test, engine } = await setUp(app);
    expect(await engine.run(501, { action: 'key', key: 'return', settleMs: 0 })).toMatchObject({ method: 'accessibility' });
    expect(await engine.run(501, { action: 'key', key: 'escape', settleMs: 0 })).toMatchObject({ method: 'accessibility' });
    expect(ok.log).toEqual(['perform AXPress']);
    expect(cancel.log).toEqual(['perform AXPress']);
    expectSilent(test, app);
    await test.finish();
  });

  it('key: Return in a text area is a new line, typed with CGEvent; a key with no accessible meaning too', async () => {
    const app = sampleApp();
    const area: FakeNode = { role: 'AXTextArea', title: 'Body', value: '', focused: true, actions: ['AXConfirm'], settable: ['AXFocused'] };
    app.windows[0]?.children?.push(area);
    const { test, engine, id } = await setUp(app);
    expect(await engine.run(501, { action: 'key', id: await id('Body'), key: 'return', settleMs: 0 })).toMatchObject({ method: 'input' });
    expect(await engine.run(501, { action: 'key', key: 'tab', settleMs: 0 })).toMatchObject({ method: 'input' });
    expect(area.log?.includes('perform AXConfirm') ?? false).toBe(false);
    expect(test.fake.posted.filter(({ event }) => event.keyDown === true).map(({ event }) => event.keyCode)).toEqual([0x24, 0x30]);
    await test.finish();
  });

  it('key: a menu shortcut presses its menu item, found in the menu bar with no menu opened', async () => {
    const undo: FakeNode = { role: 'AXMenuItem', title: 'Undo Typing', cmdChar: 'Z', cmdModifiers: 0, actions: ['AXPress'] };
    const copy: FakeNode = { role: 'AXMenuItem', title: 'Copy', cmdChar: 'C', cmdModifiers: 0, actions: ['AXPress'] };
    const app: FakeApp = {
      ...sampleApp(),
      menuBar: { role: 'AXMenuBar', children: [{ role: 'AXMenuBarItem', title: 'Edit', children: [{ role: 'AXMenu', children: [undo, copy] }] }] },
    };
    const { test, engine, id } = await setUp(app);
    expect(await engine.run(501, { action: 'key', key: 'z', modifiers: ['cmd'], settleMs: 0 })).toMatchObject({ success: true, method: 'accessibility' });
    expect(undo.log).toEqual(['perform AXPress']);
    // Disabled now (the menu read is cached): the key goes to the app instead of pressing a dead item.
    copy.enabled = false;
    expect(await engine.run(501, { action: 'key', key: 'c', modifiers: ['cmd'], settleMs: 0 })).toMatchObject({ method: 'input' });
    expect(copy.log).toBeUndefined();
    // With an element named, it is focused inside its app first: the menu command acts on the focused element.
    const posted = test.fake.posted.length;
    expect(await engine.run(501, { action: 'key', id: await id('Name', 'textfield'), key: 'z', modifiers: ['cmd'], settleMs: 0 })).toMatchObject({
      method: 'accessibility',
    });
    expect(field(app, 'Name').log).toEqual(['set AXFocused']);
    expect(undo.log).toEqual(['perform AXPress', 'perform AXPress']);
    expect(test.fake.posted).toHaveLength(posted);
    // Renamed since the read: not pressed on a guess.
    undo.title = 'Undo Paste';
    expect(await engine.run(501, { action: 'key', key: 'z', modifiers: ['cmd'], settleMs: 0 })).toMatchObject({ method: 'input' });
    expect(undo.log).toEqual(['perform AXPress', 'perform AXPress']);
    await test.finish();
  });

  it('a field that became a password field since the tree was read is neither read nor typed into through AX (issue 29, point 11)', async () => {
    const app = withSelectedText(sampleApp());
    const { test, engine, id } = await setUp(app);
    const nameId = await id('Name', 'textfield');
    const tree = await engine.observe(501);
    const node = (tree.root.children?.[0]?.children ?? []).find((child) => child.id === nameId) as UiNode;
    // Same role, same place: a login page swapped its field for a password one.
    Object.assign(field(app, 'Name'), { subrole: 'AXSecureTextField', value: 'hunter2' });
    expect(await test.platform.accessibility.readText?.(tree.refs.get(nameId), node, 100)).toBe('');
    expect(await test.platform.accessibility.insertText?.(tree.refs.get(nameId), node, 'x')).toBe(false);
    expect(test.fake.valuesServed).not.toContain('hunter2');
    expect(field(app, 'Name').log ?? []).toEqual([]);
    await test.finish();
  });
});

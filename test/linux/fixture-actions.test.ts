/**
 * Every ui_action on the project's GTK3 fixture app, for real: Xvfb, AT-SPI2, XTest.
 * Each effect is checked through the tree, the way a model would see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiActionResult } from '../../src/shared/ui-action';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes } from '../../src/core/ui/query';
import { serializeTree } from '../../src/core/ui/serialize';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools, waitFor } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('fixture app through the Linux backend', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    pid = (await desktop.launchFixture()).pid;
  }, 60_000);

  afterAll(async () => desktop?.stop());

  async function find(name: string, role?: string): Promise<UiNode> {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const match = findNodes(root, { name, ...(role === undefined ? {} : { role }) })[0];
    if (match === undefined) throw new Error(`no ${role ?? 'node'} named ${name} in\n${serializeTree(root)}`);
    return match.node;
  }

  async function act(request: Record<string, unknown>): Promise<UiActionResult> {
    const result = await desktop.engine.run(pid, request);
    expect(result.error, JSON.stringify(result.error)).toBeUndefined();
    return result;
  }

  it('reads the whole fixture with normalized roles, values and no secret', async () => {
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    const text = serializeTree(root, { maxNodes: 2000 });
    expect(text).toMatch(/button "Clicked 0 times"/);
    expect(text).toMatch(/checkbox "Enable feature" \(unchecked\)/);
    expect(text).toMatch(/slider "Volume" = 50/);
    expect(text).toMatch(/textfield "Name"/);
    expect(text).toMatch(/textfield "Password" \(secret\)/);
    expect(findNodes(root, { role: 'listitem' })).toHaveLength(200);
    expect((await find('Items', 'list')).role).toBe('list');
  });

  it('click: presses the counter through accessibility', async () => {
    const result = await act({ action: 'click', id: (await find('Clicked 0 times', 'button')).id });
    expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { name: 'Clicked 1 time' } });
  });

  it('click: toggles the check box', async () => {
    const result = await act({ action: 'click', id: (await find('Enable feature', 'checkbox')).id });
    expect(result).toMatchObject({ method: 'accessibility', changed: true, nodeAfter: { states: { checked: true } } });
  });

  it('set_value: moves the slider through Value', async () => {
    const result = await act({ action: 'set_value', id: (await find('Volume', 'slider')).id, value: 75 });
    expect(result).toMatchObject({ method: 'accessibility', changed: true, nodeAfter: { value: 75 } });
  });

  it('set_value: fills the text field through EditableText', async () => {
    const result = await act({ action: 'set_value', id: (await find('Name', 'textfield')).id, value: 'Ada' });
    expect(result).toMatchObject({ method: 'accessibility', changed: true, nodeAfter: { value: 'Ada' } });
  });

  it('type: inserts shifted symbols at the end through EditableText, taking no keyboard', async () => {
    const result = await act({ action: 'type', id: (await find('Name', 'textfield')).id, text: ' Lovelace! #1 (2+2)?' });
    expect(result).toMatchObject({ method: 'accessibility', via: 'insert-text', changed: true });
    expect(result.nodeAfter?.value).toBe('Ada Lovelace! #1 (2+2)?');
  });

  it('type: inserts text no key can type through EditableText', async () => {
    const result = await act({ action: 'type', id: (await find('Name', 'textfield')).id, text: ' café ✓' });
    expect(result).toMatchObject({ method: 'accessibility', changed: true });
    expect(String(result.nodeAfter?.value)).toContain('café ✓');
  });

  it('key: select-all and delete empty the field', async () => {
    const id = (await find('Name', 'textfield')).id;
    await act({ action: 'key', key: 'ctrl+a', id });
    const result = await act({ action: 'key', key: 'backspace', id });
    expect(result).toMatchObject({ method: 'input', changed: true, nodeAfter: { value: '' } });
  });

  it('type: after select-all, typing replaces the text as it would for a person', async () => {
    const id = (await find('Name', 'textfield')).id;
    await act({ action: 'set_value', id, value: 'old text' });
    await act({ action: 'key', key: 'ctrl+a', id });
    const result = await act({ action: 'type', id, text: 'Grace' });
    expect(result.nodeAfter?.value).toBe('Grace');
  });

  it('scroll: scrolls the list (a success even when nothing observable changed)', async () => {
    const result = await act({ action: 'scroll', id: (await find('Items', 'list')).id, direction: 'down', amount: 5 });
    expect(result).toMatchObject({ success: true, method: 'input' });
  });

  it('drag: drops the source on the zone, whose label changes', async () => {
    const result = await act({ action: 'drag', id: (await find('Drag me', 'button')).id, toId: (await find('Drop here', 'label')).id, settleMs: 200 });
    expect(result).toMatchObject({ success: true, method: 'input', changed: true, nodeAfter: { name: 'Dropped: Drag me' } });
  });

  it('never reads a password back', async () => {
    const id = (await find('Password', 'textfield')).id;
    await act({ action: 'set_value', id, value: 'hunter2' });
    const { root } = await desktop.engine.observe(pid, { fresh: true });
    expect(JSON.stringify(root)).not.toContain('hunter2');
    await waitFor(async () => ((await find('Password: 7 characters', 'label')) ? true : undefined), 2000, 'the fixture to see the password');
  });

  it('keeps the tree cached until the app changes', async () => {
    const first = await desktop.platform.accessibility.getTree(pid);
    expect(await desktop.platform.accessibility.getTree(pid)).toBe(first);
    await act({ action: 'click', id: (await find('Enable feature', 'checkbox')).id });
    await waitFor(async () => ((await desktop.platform.accessibility.getTree(pid)) !== first ? true : undefined), 2000, 'an event to drop the cached tree');
  });
});

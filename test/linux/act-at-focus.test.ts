/**
 * The act forms a person expects, on real GTK 3 widgets: `set_value` on a combo box by an
 * item's name (GTK's combo boxes take no value through AT-SPI, and name themselves by their
 * selection), and `type` without an id into the control that has the focus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction } from '../../src/core/actions/run-action';
import { selectionOf } from '../../src/core/actions/choose-option';
import { walk } from '../../src/core/ui/tree-index';
import type { UiNode } from '../../src/shared/ui-node';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('act by name and at the focus, on gtk3-widget-factory', () => {
  let desktop: Desktop;
  let pid: number;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    pid = (await desktop.launch('gtk3-widget-factory')).pid;
  }, 60_000);

  afterAll(async () => desktop?.stop());

  const tree = async (): Promise<UiNode> => (await desktop.engine.observe(pid, { fresh: true })).root;

  it('sets a combo box to one of its items by name, and reads the selection back', async () => {
    // A combo box without an entry whose items are in its (closed) menu.
    const box = [...walk(await tree())].find(
      (node) =>
        node.role === 'combobox' &&
        node.states.enabled &&
        !node.children?.some((child) => child.role === 'textfield') &&
        [...walk(node)].some((item) => item.role === 'menuitem'),
    );
    if (box === undefined) throw new Error('gtk3-widget-factory shows no combo box with items');
    const items = [...walk(box)].filter((node) => node.role === 'menuitem').map((node) => node.name);
    const wanted = items.find((name) => name.trim() !== '' && name !== selectionOf(box));
    if (wanted === undefined) throw new Error(`no other item in ${JSON.stringify(items)}`);
    const result = await runAction(desktop.engine, pid, { action: 'set_value', id: box.id, value: wanted.toLowerCase() });
    expect(result, JSON.stringify(result.error)).toMatchObject({ success: true, changed: true });
    expect(result.changes).toEqual([`selection: ${JSON.stringify(selectionOf(box))} → ${JSON.stringify(wanted)}`]);
    expect(result.nodeAfter === null ? undefined : selectionOf(result.nodeAfter)).toBe(wanted);
  });

  it('types into the focused text field when the request has no id', async () => {
    const field = [...walk(await tree())].find((node) => node.role === 'textfield' && node.states.enabled && node.states.editable === true);
    if (field === undefined) throw new Error('gtk3-widget-factory shows no editable text field');
    expect((await runAction(desktop.engine, pid, { action: 'click', id: field.id })).success).toBe(true);
    const typed = await runAction(desktop.engine, pid, { action: 'type', text: 'xyz' });
    expect(typed, JSON.stringify(typed.error)).toMatchObject({ success: true, changed: true, nodeAfter: { id: field.id } });
    expect(String(typed.nodeAfter?.value)).toContain('xyz');
  });
});

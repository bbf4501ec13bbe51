import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/ui-node';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { FixtureApp } from '../platform/fake/fixture-app';
import type { RawNode } from '../ui/ids';
import { findNodes } from '../ui/query';
import { ActionEngine } from './engine';
import { runAction } from './run-action';

const COMBO_PID = 6161;

/** The fixture plus a combo box that, like GTK's, takes no value through accessibility and shows its items only when open. */
class ComboApp extends FixtureApp {
  colour = 'Red';
  open = false;
  /** An app whose box does not follow the click (a broken one): the read-back must notice. */
  stuck = false;

  override press(key: string): boolean {
    if (key === 'colour') this.open = !this.open;
    else if (key.startsWith('option:')) [this.colour, this.open] = [this.stuck ? this.colour : key.slice(7), false];
    else return super.press(key);
    return true;
  }

  override tree(pid: number): RawNode<string> {
    const root = super.tree(pid);
    const node = (key: string, role: Role, name: string, extra: Partial<RawNode<string>> = {}): RawNode<string> => ({
      ref: `${pid}/${key}`,
      role,
      platformRole: `fake:${role}`,
      name,
      states: { enabled: true, focused: false },
      actions: ['press'],
      ...extra,
    });
    const options = this.open ? ['Red', 'Green', 'Blue'].map((name) => node(`option:${name}`, 'listitem', name)) : [];
    root.children?.push(node('colour', 'combobox', 'Colour', { value: this.colour, children: options }));
    return root;
  }
}

let platform: FakePlatform;
let engine: ActionEngine;

beforeEach(() => {
  platform = new FakePlatform();
  engine = new ActionEngine({ platform, clock: new FakeClock() });
});

async function idOf(pid: number, name: string, role?: string): Promise<string> {
  const { root } = await engine.observe(pid);
  const found = findNodes(root, { name, ...(role === undefined ? {} : { role }) })[0]?.node;
  if (found === undefined) throw new Error(`no ${name}`);
  return found.id;
}

describe("'type' without an id", () => {
  it('types into the control that has the focus, and verifies on it', async () => {
    const name = await idOf(FIXTURE_PID, 'Name', 'textfield');
    await runAction(engine, FIXTURE_PID, { action: 'click', id: name });
    const result = await runAction(engine, FIXTURE_PID, { action: 'type', text: 'hello' });
    expect(result).toMatchObject({ success: true, changed: true, nodeAfter: { id: name, value: 'hello' } });
    expect(result.changes).toEqual(['value: "" → "hello"']);
  });

  it('refuses, naming the fields it could type into, when no control has the focus', async () => {
    const result = await runAction(engine, FIXTURE_PID, { action: 'type', text: 'hello' });
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe('NODE_NOT_FOUND');
    expect(result.error?.message).toMatch(/no control in pid 4242 has it; give the id/);
    expect((result.error?.data?.['candidates'] as { name: string }[]).map((each) => each.name)).toEqual(['Name', 'Password']);
    expect(platform.inputLog).toEqual([]);
  });
});

describe('set_value on a combo box', () => {
  let app: ComboApp;
  beforeEach(() => {
    app = new ComboApp();
    platform.running.set(COMBO_PID, app);
  });

  it('chooses the item by name and reads the selection back', async () => {
    const box = await idOf(COMBO_PID, 'Colour', 'combobox');
    const result = await runAction(engine, COMBO_PID, { action: 'set_value', id: box, value: 'blue' });
    expect(result).toMatchObject({ success: true, changed: true, nodeAfter: { id: box, value: 'Blue' } });
    expect(result.changes).toEqual(['selection: "Red" → "Blue"']);
    expect(app).toMatchObject({ colour: 'Blue', open: false });
  });

  it('is a soft failure when the box does not show the item after the click', async () => {
    app.stuck = true;
    const result = await runAction(engine, COMBO_PID, { action: 'set_value', id: await idOf(COMBO_PID, 'Colour', 'combobox'), value: 'Green' });
    expect(result).toMatchObject({ success: true, changed: false, nodeAfter: { value: 'Red' } });
  });

  it('names the items it has when none matches', async () => {
    const result = await runAction(engine, COMBO_PID, { action: 'set_value', id: await idOf(COMBO_PID, 'Colour', 'combobox'), value: 'Purple' });
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe('NOT_SETTABLE');
    expect(result.error?.message).toBe('the combo box "Colour" has no item named "Purple"; it offers "Red", "Green", "Blue"');
    expect(app.colour).toBe('Red');
  });

  it('leaves other NOT_SETTABLE answers as the engine gave them', async () => {
    const label = await idOf(FIXTURE_PID, 'Ready', 'label');
    const result = await runAction(engine, FIXTURE_PID, { action: 'set_value', id: label, value: 'x' });
    expect(result.error?.code).toBe('NOT_SETTABLE');
  });
});

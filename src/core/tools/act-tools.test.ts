import { beforeEach, describe, expect, it } from 'vitest';
import type { UiActionResult } from '../../shared/ui-action';
import type { Role } from '../../shared/ui-node';
import { FakeClock } from '../clock';
import { FIXTURE_PID } from '../platform/fake/fake-platform';
import { FixtureApp } from '../platform/fake/fixture-app';
import { platformTraits } from '../platform/traits';
import type { RawNode } from '../ui/ids';
import { createToolRegistry } from '../agent/tool-registry/registry';
import { closeShortcut } from './close-window';
import { errorText } from './advice';
import { waitForTool } from './wait-for';
import { serializeError } from '../../shared/errors';
import type { ElementMatch } from './find';
import type { FieldResult } from './fill-form';
import type { ToolRegistry } from '../agent/tool-registry/registry';
import { fakeContext, type FakeContext } from './fake-context';

const FORM_PID = 5151;

/**
 * The fixture plus what it lacks for forms: a radio group, a combobox whose options appear
 * only once it is opened (and that refuses set_value), and a Close button.
 */
class FormApp extends FixtureApp {
  size = 'Small';
  colour = 'Red';
  open = false;
  closed = 0;

  override press(key: string): boolean {
    if (key.startsWith('size:')) this.size = key.slice(5);
    else if (key === 'colour') this.open = !this.open;
    else if (key.startsWith('option:')) [this.colour, this.open] = [key.slice(7), false];
    else if (key === 'close') this.closed += 1;
    else return super.press(key);
    return true;
  }

  override setValue(key: string, value: string | number): boolean {
    return key === 'colour' ? false : super.setValue(key, value);
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
    const radio = (name: string): RawNode<string> =>
      node(`size:${name}`, 'radio', name, { states: { enabled: true, focused: false, checked: this.size === name } });
    const options = this.open ? ['Red', 'Green', 'Blue'].map((name) => node(`option:${name}`, 'listitem', name)) : [];
    root.children?.push(
      node('size', 'group', 'Size', { actions: [], children: [radio('Small'), radio('Large')] }),
      node('colour', 'combobox', 'Colour', { value: this.colour, children: options }),
      node('close', 'button', 'Close'),
    );
    return root;
  }
}

let registry: ToolRegistry;
let context: FakeContext;

beforeEach(() => {
  registry = createToolRegistry();
  context = fakeContext();
});

const call = (name: string, args: unknown) => registry.call(name, JSON.stringify(args), context);
const fixture = () => context.platform.app(FIXTURE_PID);

async function idOf(name: string, role?: string): Promise<string> {
  const result = await call('ui_find', { name, ...(role === undefined ? {} : { role }) });
  const first = (result.data as { matches: ElementMatch[] }).matches[0];
  if (first === undefined) throw new Error(`no ${name}`);
  return first.id;
}

describe('ui_action', () => {
  it('passes the request to the engine and returns its result, summarised', async () => {
    const result = await call('ui_action', { action: 'click', id: await idOf('Clicked 0 times') });
    expect(result.success).toBe(true);
    expect(result.message).toMatch(
      /^click ran via accessibility; changed: name: "Clicked 0 times" → "Clicked 1 time"\nnow: \[\w{5}\] button "Clicked 1 time"$/,
    );
    expect((result.data as UiActionResult).nodeAfter?.name).toBe('Clicked 1 time');
    const set = await call('ui_action', { action: 'set_value', id: await idOf('Volume'), value: 70 });
    expect(set.message).toMatch(/^set_value ran via accessibility; changed: value: 50 → 70\nnow: /);
    expect(fixture().get('slider').value).toBe(70);
  });

  it("says scroll's changed:false is expected", async () => {
    const list = await idOf('Items', 'list');
    // Already at the top: nothing moves, which for scroll is not a failure.
    const up = await call('ui_action', { action: 'scroll', id: list, direction: 'up' });
    expect(up.success).toBe(true);
    expect((up.data as UiActionResult).method).toBe('input');
    expect(up.message).toMatch(/changed: false, which is normal for scroll/);
    const down = await call('ui_action', { action: 'scroll', id: list, direction: 'down' });
    expect(down.message).toMatch(/^scroll ran via input; changed: /);
    expect(fixture().scrollOffset).toBeGreaterThan(0);
  });

  it("returns the engine's validation and action failures as results", async () => {
    const bad = await call('ui_action', { action: 'type', id: 'x' });
    expect(bad).toMatchObject({ success: false });
    // Worded by the one executor (execute.ts): the code, the message, then the next step.
    expect(bad.message).toBe("VALIDATION: invalid ui_action: 'type' needs 'text' (string). Fix the arguments named above and call again.");
    const missing = await call('ui_action', { action: 'click', id: 'nope' });
    expect(missing.success).toBe(false);
    expect(missing.message).toMatch(/^click failed: NODE_NOT_FOUND: /);
    const unsettable = await call('ui_action', { action: 'set_value', id: await idOf('Enable feature'), value: 'x' });
    expect(unsettable.message).toMatch(/^set_value failed: NOT_SETTABLE/);
  });

  it('rethrows on abort and does not act', async () => {
    const id = await idOf('Clicked 0 times');
    context.controller.abort();
    await expect(call('ui_action', { action: 'click', id })).rejects.toThrow();
    expect(fixture().clicks).toBe(0);
  });
});

describe('ui_fill_form', () => {
  it('sets Name, the slider, and checks "Enable feature", by fuzzy label', async () => {
    const result = await call('ui_fill_form', {
      fields: [
        { label: 'name', value: 'Ada' },
        { label: 'Enable feature', value: true },
        { label: 'Volum', value: 30 },
      ],
    });
    expect(result.success).toBe(true);
    expect(fixture().get('name').value).toBe('Ada');
    expect(fixture().get('toggle').checked).toBe(true);
    expect(fixture().get('slider').value).toBe(30);
    expect(result.message.split('\n')[0]).toBe('all fields filled');
    expect(context.logs).toHaveLength(3);
  });

  it('clicks a checkbox only when its state differs', async () => {
    fixture().get('toggle').checked = true;
    const result = await call('ui_fill_form', { fields: [{ label: 'Enable feature', value: 'yes' }] });
    expect((result.data as { fields: FieldResult[] }).fields[0]?.message).toBe('already checked');
    expect(fixture().get('toggle').checked).toBe(true);
    await call('ui_fill_form', { fields: [{ label: 'Enable feature', value: false }] });
    expect(fixture().get('toggle').checked).toBe(false);
  });

  it('falls back to select-all and type when set_value is refused', async () => {
    const name = fixture().get('name');
    name.value = 'old';
    name.settable = false;
    const result = await call('ui_fill_form', { fields: [{ label: 'Name', value: 'Grace' }] });
    expect(result.success).toBe(true);
    expect(name.value).toBe('Grace');
    expect(context.platform.inputLog).toContain('key ctrl+a');
  });

  it('reports a missing field with candidates and still fills the others', async () => {
    const result = await call('ui_fill_form', {
      fields: [
        { label: 'Email address', value: 'a@b.c' },
        { label: 'Name', value: 'Ada' },
      ],
    });
    expect(result.success).toBe(false);
    const [missing, name] = (result.data as { fields: FieldResult[] }).fields;
    expect(missing).toMatchObject({ success: false, label: 'Email address' });
    expect(missing?.candidates?.length).toBeGreaterThan(0);
    expect(missing?.message).toMatch(/^no field labelled "Email address"; closest: /);
    expect(name?.success).toBe(true);
    expect(result.message).toMatch(/^1 of 2 fields failed/);
  });

  it('quotes labels in its messages, so a quote or a newline in one cannot end the line', async () => {
    const result = await call('ui_fill_form', { fields: [{ label: 'Email "x"\nok "Name": done', value: 'a' }] });
    expect(result.message.split('\n')).toHaveLength(2);
    expect(result.message.split('\n')[1]).toMatch(/^FAILED "Email \\"x\\"\\nok \\"Name\\": done": no field labelled "Email \\"x\\"\\nok/);
  });

  it('chooses a radio option by value and a combobox option after opening it', async () => {
    const app = new FormApp('Form');
    context.platform.running.set(FORM_PID, app);
    context.targetPid = FORM_PID;
    const result = await call('ui_fill_form', {
      fields: [
        { label: 'Size', value: 'large' },
        { label: 'Colour', value: 'Blue' },
      ],
    });
    expect(result.message).toContain('selected "Large"');
    expect(result.success).toBe(true);
    expect(app.size).toBe('Large');
    expect(app.colour).toBe('Blue');
    expect(app.open).toBe(false);
  });
});

describe('ui_wait_for', () => {
  it('sees the slider reach a value set by a delayed action', async () => {
    // A fake clock that sets the slider during the wait's third pause: no real time passes.
    const clock = new FakeClock();
    let later: Promise<UiActionResult> | undefined;
    const pause = clock.sleep.bind(clock);
    clock.sleep = async (ms, signal) => {
      await pause(ms, signal);
      if (ms === 10 && clock.sleeps.filter((each) => each === 10).length === 3) {
        later = context.engine.run(FIXTURE_PID, { action: 'set_value', id, value: 70, settleMs: 0 });
        await later;
      }
    };
    context = fakeContext({ clock });
    const id = await idOf('Volume');
    const result = await call('ui_wait_for', { id, value: 70, intervalMs: 10, timeoutMs: 3000 });
    expect(later).toBeDefined();
    expect(result.success).toBe(true);
    expect(result.message).toMatch(/^after 4 polls: \[\w+\] slider "Volume" = 70$/);
    expect(context.logs.length).toBeGreaterThan(0);
  });

  it('waits on role/name and states, and times out with what it last saw', async () => {
    expect((await call('ui_wait_for', { role: 'checkbox', name: 'Enable feature', state: { checked: false } })).success).toBe(true);
    const timeout = await call('ui_wait_for', { role: 'checkbox', name: 'Enable feature', state: { checked: true }, timeoutMs: 1000 });
    expect(timeout.success).toBe(false);
    expect(timeout.message).toMatch(/^TIMEOUT: condition not met within 1000 ms; last seen: \[\w+\] checkbox "Enable feature"/);
    // The app answered every poll: the advice (as the MCP server words it) is about the condition, never a busy or frozen app.
    const thrown = await waitForTool
      .handler({ role: 'checkbox', name: 'Enable feature', state: { checked: true }, timeoutMs: 1000 }, context)
      .catch((error: unknown) => error);
    const advice = errorText(serializeError(thrown));
    expect(advice).toContain('what was waited for did not happen');
    expect(advice).not.toContain('busy or frozen');
    const never = await call('ui_wait_for', { name: 'Saved successfully', timeoutMs: 500 });
    expect(never.message).toMatch(/the node never appeared\. The app answered every time; what was waited for did not happen\./);
  });

  it('refuses a timeout over 30 s and rethrows on abort', async () => {
    expect((await call('ui_wait_for', { name: 'x', timeoutMs: 60_000 })).message).toMatch(/^VALIDATION: invalid arguments for ui_wait_for: 'timeoutMs'/);
    // The abort comes during the third pause; the wait must not poll again after it.
    const clock = new FakeClock();
    const pause = clock.sleep.bind(clock);
    clock.sleep = (ms, signal) => {
      if (clock.sleeps.length === 2) context.controller.abort();
      return pause(ms, signal);
    };
    context = fakeContext({ clock });
    await expect(call('ui_wait_for', { name: 'never there', timeoutMs: 10_000 })).rejects.toThrow();
    expect(clock.sleeps).toHaveLength(2);
    expect(clock.now()).toBeLessThan(10_000);
  });
});

describe('ui_close_window', () => {
  it('uses cmd+w on macOS and ctrl+w elsewhere', () => {
    expect(closeShortcut(platformTraits('darwin').primaryModifier)).toEqual({ key: 'w', modifiers: ['cmd'] });
    expect(closeShortcut(platformTraits('linux').primaryModifier)).toEqual({ key: 'w', modifiers: ['ctrl'] });
    expect(closeShortcut(platformTraits('win32').primaryModifier)).toEqual({ key: 'w', modifiers: ['ctrl'] });
  });

  it('presses the shortcut and sees the window count drop', async () => {
    const { input } = context.platform;
    const pressKey = input.pressKey.bind(input);
    input.pressKey = async (key, modifiers, pid) => {
      await pressKey(key, modifiers, pid);
      if (key === 'w' && modifiers.includes('ctrl')) context.platform.kill(FIXTURE_PID);
    };
    const result = await call('ui_close_window', {});
    expect(result).toMatchObject({ success: true, message: 'pressed ctrl+w; windows: 1 → 0' });
    expect(context.platform.inputLog).toContain('key ctrl+w');
  });

  it('clicks a Close button when the window has one', async () => {
    const app = new FormApp('Form');
    context.platform.running.set(FORM_PID, app);
    context.targetPid = FORM_PID;
    const press = app.press.bind(app);
    app.press = (key) => {
      if (key === 'close') context.platform.kill(FORM_PID);
      return press(key);
    };
    const result = await call('ui_close_window', {});
    expect(result.message).toMatch(/^clicked \[\w+\] "Close"; windows: 1 → 0$/);
    expect(context.platform.inputLog).toEqual([]);
  });

  it('asks the window manager to close it where the platform can, and never presses ctrl+w (galculator ignores it)', async () => {
    const asked: number[] = [];
    context.platform.apps.closeWindow = (pid) => {
      asked.push(pid);
      context.platform.kill(pid);
      return Promise.resolve(true);
    };
    const result = await call('ui_close_window', {});
    expect(result).toMatchObject({ success: true, data: { method: 'title-bar', before: 1, after: 0 } });
    expect(result.message).toBe("asked the window to close, as its title bar's close button does; windows: 1 → 0");
    expect(asked).toEqual([FIXTURE_PID]);
    expect(context.platform.inputLog).toEqual([]);
  });

  it('falls back to the shortcut when the window manager cannot be asked', async () => {
    context.platform.apps.closeWindow = () => Promise.resolve(false);
    const result = await call('ui_close_window', {});
    expect(context.platform.inputLog).toContain('key ctrl+w');
    expect(result.success).toBe(false);
  });

  it('says so when the window did not close', async () => {
    const result = await call('ui_close_window', {});
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^pressed ctrl\+w, but the window count is still 1/);
  });
});

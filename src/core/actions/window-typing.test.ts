import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { ActionEngine } from './engine';
import { keepDevices } from './keep-devices';
import { NotSettableError } from '../../shared/errors';

/**
 * A platform whose text field ignores EditableText (as Gecko's does) but reads back, and whose
 * input can send keys to the app's window; `arrives` says whether the app takes those keys.
 */
function setup(arrives: boolean) {
  const platform = new FakePlatform();
  const clock = new FakeClock();
  const field = platform.app(FIXTURE_PID).get('name');
  const sent: string[] = [];
  const options: unknown[] = [];
  Object.assign(platform.accessibility, { readText: () => Promise.resolve(String(field.value ?? '')) });
  Object.assign(platform.input, {
    typeInWindow: (pid: number, text: string, given?: { replace?: boolean }) => {
      sent.push(`${pid}:${text}`);
      options.push(given ?? {});
      if (arrives) field.value = given?.replace === true ? text : `${String(field.value ?? '')}${text}`;
      return Promise.resolve(true);
    },
  });
  // "Never take my pointer or keyboard" with nobody to ask: any step that took the devices would be refused.
  const engine = new ActionEngine({ platform, clock, askBeforeInput: (request) => keepDevices({ keepDevices: true }, request) });
  return { platform, clock, field, sent, options, engine };
}

async function nameId(engine: ActionEngine): Promise<string> {
  return findNodes((await engine.observe(FIXTURE_PID)).root, { name: 'Name', role: 'textfield' })[0]?.node.id as string;
}

describe('typing into the app’s window', () => {
  it('types without the user’s keyboard, focus or pointer when EditableText does nothing, verified by the text read back', async () => {
    const { platform, field, sent, engine } = setup(true);
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text: 'Lisbon' });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'window-keys', changed: true });
    expect(result.interrupted).toBeUndefined();
    expect(sent).toEqual([`${FIXTURE_PID}:Lisbon`]);
    expect(field.value).toBe('Lisbon');
    // No XTest keys, no clicks: the only input went to the window.
    expect(platform.inputLog).toEqual([]);
  });

  it('falls back to the keyboard when the app ignores keys sent to its window, after a bounded wait', async () => {
    const { clock, sent, engine } = setup(false);
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text: 'Lisbon' });
    expect(sent).toHaveLength(1);
    // The fallback takes the keyboard, which this user keeps: refused, with nothing typed.
    expect(result).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED', data: { reason: 'keep-devices' } } });
    // About a second, and a fifth of a check more per character sent (6 here).
    expect(clock.sleeps.filter((ms) => ms === 25).length).toBeLessThanOrEqual(42);
  });

  it('sends no keys to the window of a sheet cell, which shows its text only once committed: it goes straight to the keyboard', async () => {
    const { clock, field, sent, engine } = setup(false);
    Object.assign(field, { role: 'cell' });
    const id = findNodes((await engine.observe(FIXTURE_PID)).root, { role: 'cell' })[0]?.node.id as string;
    const result = await engine.run(FIXTURE_PID, { action: 'type', id, text: '500\n' });
    expect(sent).toEqual([]);
    expect(clock.sleeps.filter((ms) => ms === 25)).toEqual([]);
    // The keyboard is this user's to keep: refused, which shows the keyboard was the next route.
    expect(result).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED', data: { reason: 'keep-devices' } } });
  });

  it('gives the active window straight back when focusing the element activated the app (Chromium), and says it interrupted', async () => {
    const { platform, engine } = setup(true);
    let active = 1;
    const restored: number[] = [];
    const focus = platform.accessibility.focus.bind(platform.accessibility);
    Object.assign(platform.accessibility, {
      focus: async (ref: unknown, node: never) => {
        active = 2;
        return focus(ref, node);
      },
    });
    Object.assign(platform.apps, {
      activeWindow: () => Promise.resolve(active),
      restoreWindow: (window: number) => {
        restored.push(window);
        active = window;
        return Promise.resolve();
      },
    });
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text: 'Lisbon' });
    expect(result).toMatchObject({ success: true, via: 'window-keys', interrupted: true });
    expect(restored).toEqual([1]);
  });

  it('focuses without activating the window where the backend can, and has the keys put the caret at the end when it could not', async () => {
    const { platform, options, engine } = setup(true);
    const focused: string[] = [];
    Object.assign(platform.accessibility, {
      focus: () => Promise.reject(new Error('focus() would activate the window')),
      focusInBackground: (_ref: unknown, node: { name: string }) => {
        focused.push(node.name);
        return Promise.resolve('caret-unplaced');
      },
    });
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text: 'Lisbon' });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'window-keys' });
    expect(result.interrupted).toBeUndefined();
    expect(focused).toEqual(['Name']);
    expect(options).toEqual([{ toEnd: true }]);
  });

  it('replaces a field’s text with set_value when it takes no text through accessibility, verified by the text read back', async () => {
    const { platform, field, options, engine } = setup(true);
    field.value = 'old';
    Object.assign(platform.accessibility, { setValue: () => Promise.reject(new NotSettableError()) });
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id: await nameId(engine), value: 'Porto' });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'window-keys' });
    expect(options).toEqual([{ replace: true }]);
    expect(field.value).toBe('Porto');
    expect(platform.inputLog).toEqual([]);
  });

  it('still reports a field it cannot set, when the window ignores the keys', async () => {
    const { platform, engine } = setup(false);
    Object.assign(platform.accessibility, { setValue: () => Promise.reject(new NotSettableError()) });
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id: await nameId(engine), value: 'Porto' });
    expect(result).toMatchObject({ success: false, error: { code: 'NOT_SETTABLE' } });
    expect(platform.inputLog).toEqual([]);
  });

  /** Keys the app works through a few per read-back, as a browser does with a long text. */
  function slowApp(perRead: number, keep: (text: string) => string = (text) => text) {
    const context = setup(false);
    const { platform, field } = context;
    let queue = '';
    let reads = 0;
    Object.assign(platform.input, {
      typeInWindow: (_pid: number, text: string) => {
        queue += text;
        return Promise.resolve(true);
      },
    });
    Object.assign(platform.accessibility, {
      readText: () => {
        reads += 1;
        field.value = keep(`${String(field.value ?? '')}${queue.slice(0, perRead)}`);
        queue = queue.slice(perRead);
        return Promise.resolve(String(field.value));
      },
    });
    return { ...context, reads: () => reads };
  }

  it('waits until the app has taken every key before it verifies, not only the first', async () => {
    const { field, engine } = slowApp(7);
    const text = 'ab '.repeat(100);
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text });
    expect(result).toMatchObject({ success: true, via: 'window-keys' });
    expect(field.value).toBe(text);
    expect(result.nodeAfter?.value).toBe(text);
  });

  it('stops waiting once a field that cuts what it is given has stopped changing, and still reports the route', async () => {
    const { field, engine, clock, reads } = slowApp(3, (text) => text.slice(0, 10));
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text: 'x'.repeat(50) });
    expect(result).toMatchObject({ success: true, via: 'window-keys' });
    expect(field.value).toBe('x'.repeat(10));
    // Arrived at the first read, full at the fourth, then 40 unchanged reads (a second): bounded by the stillness, not by the 50 keys.
    expect(clock.sleeps.filter((ms) => ms === 25).length).toBe(43);
    expect(reads()).toBeGreaterThan(40);
  });

  it('counts no text for Return at the end, which a one-line field takes as a submit: no wait for a stillness', async () => {
    const { engine, clock } = slowApp(4, (text) => text.replace('\n', ''));
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text: 'Lisbon\n' });
    expect(result).toMatchObject({ success: true, via: 'window-keys' });
    expect(clock.sleeps.filter((ms) => ms === 25)).toHaveLength(1);
  });

  it('reads keyboard typing, the last route, back until every key is taken too, after the devices are given back', async () => {
    const platform = new FakePlatform();
    const field = platform.app(FIXTURE_PID).get('name');
    let queue = '';
    // The keyboard route: no EditableText, no keys to the window; the app takes five keys per read.
    Object.assign(platform.input, {
      typeText: (text: string) => {
        queue += text;
        return Promise.resolve();
      },
    });
    Object.assign(platform.accessibility, {
      readText: () => {
        field.value = `${String(field.value ?? '')}${queue.slice(0, 5)}`;
        queue = queue.slice(5);
        return Promise.resolve(String(field.value));
      },
    });
    const engine = new ActionEngine({ platform, clock: new FakeClock() });
    const text = 'x'.repeat(60);
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await nameId(engine), text });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'keys' });
    expect(result.nodeAfter?.value).toBe(text);
  });
});

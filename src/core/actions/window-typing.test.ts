import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { ActionEngine } from './engine';
import { keepDevices } from './keep-devices';

/**
 * A platform whose text field ignores EditableText (as Gecko's does) but reads back, and whose
 * input can send keys to the app's window; `arrives` says whether the app takes those keys.
 */
function setup(arrives: boolean) {
  const platform = new FakePlatform();
  const clock = new FakeClock();
  const field = platform.app(FIXTURE_PID).get('name');
  const sent: string[] = [];
  Object.assign(platform.accessibility, { readText: () => Promise.resolve(String(field.value ?? '')) });
  Object.assign(platform.input, {
    typeInWindow: (pid: number, text: string) => {
      sent.push(`${pid}:${text}`);
      if (arrives) field.value = `${String(field.value ?? '')}${text}`;
      return Promise.resolve(true);
    },
  });
  // "Never take my pointer or keyboard" with nobody to ask: any step that took the devices would be refused.
  const engine = new ActionEngine({ platform, clock, askBeforeInput: (request) => keepDevices({ keepDevices: true }, request) });
  return { platform, clock, field, sent, engine };
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
    expect(clock.sleeps.filter((ms) => ms === 25).length).toBeLessThanOrEqual(12);
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
});

import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { ActionEngine, type InputRequest } from './engine';
import { askingAbout, keepDevices } from './keep-devices';

function setup() {
  const settings = { keepDevices: false };
  const platform = new FakePlatform();
  const engine = new ActionEngine({ platform, clock: new FakeClock(), askBeforeInput: (request) => keepDevices(settings, request) });
  const idOf = async (name: string, role: string): Promise<string> => findNodes((await engine.observe(FIXTURE_PID)).root, { name, role })[0]?.node.id as string;
  return { settings, platform, engine, idOf };
}

describe('keepDevices', () => {
  it('lets synthetic input run when the setting is off, and refuses it before anything is sent when nobody can be asked', async () => {
    const { settings, platform, engine, idOf } = setup();
    const field = await idOf('Name', 'textfield');
    expect(await engine.run(FIXTURE_PID, { action: 'click', id: field })).toMatchObject({ success: true, method: 'input' });
    settings.keepDevices = true;
    const sent = platform.inputLog.length;
    const refused = await engine.run(FIXTURE_PID, { action: 'click', id: field });
    expect(refused).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED', data: { reason: 'keep-devices', via: 'click', asked: false } } });
    expect(refused.error?.message).toMatch(/Never take my pointer or keyboard/);
    expect(refused.error?.message).toMatch(/nobody can be asked/);
    expect(refused.method).toBeUndefined();
    expect(platform.inputLog).toHaveLength(sent);
  });

  it('puts exactly the input step to the asker the caller named, and runs it only when allowed', async () => {
    const { settings, platform, engine, idOf } = setup();
    settings.keepDevices = true;
    const field = await idOf('Name', 'textfield');
    const seen: InputRequest[] = [];
    let allow = false;
    const asker = (request: InputRequest): Promise<boolean> => {
      seen.push(request);
      return Promise.resolve(allow);
    };
    const denied = await askingAbout(asker, () => engine.run(FIXTURE_PID, { action: 'click', id: field }));
    expect(denied).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED', data: { reason: 'keep-devices', asked: true } } });
    expect(denied.error?.message).toMatch(/said no/);
    expect(platform.inputLog).toEqual([]);
    allow = true;
    expect(await askingAbout(asker, () => engine.run(FIXTURE_PID, { action: 'key', id: field, key: 's', modifiers: ['ctrl'] }))).toMatchObject({
      success: true,
      method: 'input',
    });
    expect(seen).toEqual([
      { pid: FIXTURE_PID, via: 'click', action: 'click', target: { id: field, role: 'textfield', name: 'Name', secret: false } },
      { pid: FIXTURE_PID, via: 'keys', action: 'key', target: { id: field, role: 'textfield', name: 'Name', secret: false }, value: 'ctrl+s' },
    ]);
    // The asker is scoped to the work it was named for: outside it, nobody is asked.
    expect(await engine.run(FIXTURE_PID, { action: 'click', id: field })).toMatchObject({ error: { data: { asked: false } } });
  });

  it('asks before opening a menu by its action, whose popup then holds the keyboard, and says the step interrupted', async () => {
    const { settings, platform, engine } = setup();
    const app = platform.app(FIXTURE_PID);
    app.widgets.push({ key: 'format', role: 'menu', name: 'Format', bounds: { x: 20, y: 0, width: 60, height: 20 }, actions: ['click'] });
    let opened = 0;
    const press = platform.accessibility.press.bind(platform.accessibility);
    Object.assign(platform.accessibility, {
      press: (ref: unknown, node: { role: string }) => (node.role === 'menu' ? Promise.resolve((opened += 1) > 0) : press(ref, node as never)),
    });
    const menu = findNodes((await engine.observe(FIXTURE_PID)).root, { name: 'Format', role: 'menu' })[0]?.node.id as string;
    settings.keepDevices = true;
    const refused = await engine.run(FIXTURE_PID, { action: 'click', id: menu });
    expect(refused).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED', data: { via: 'open-menu', asked: false } } });
    expect(refused.error?.message).toMatch(/open menu/);
    expect(opened).toBe(0);
    settings.keepDevices = false;
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: menu });
    expect(result).toMatchObject({ method: 'accessibility', via: 'action', interrupted: true });
    expect(opened).toBe(1);
    expect(platform.inputLog).toEqual([]);
  });
});

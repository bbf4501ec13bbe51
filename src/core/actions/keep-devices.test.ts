import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { ActionEngine } from './engine';
import { keepDevices } from './keep-devices';

describe('keepDevices', () => {
  it('lets synthetic input run when the setting is off, and refuses it before anything is sent when on', async () => {
    const settings = { keepDevices: false };
    const platform = new FakePlatform();
    const engine = new ActionEngine({ platform, clock: new FakeClock(), askBeforeInput: (request) => keepDevices(settings, request) });
    const field = findNodes((await engine.observe(FIXTURE_PID)).root, { name: 'Name', role: 'textfield' })[0]?.node.id as string;
    expect(await engine.run(FIXTURE_PID, { action: 'click', id: field })).toMatchObject({ success: true, method: 'input' });
    settings.keepDevices = true;
    const sent = platform.inputLog.length;
    const refused = await engine.run(FIXTURE_PID, { action: 'click', id: field });
    expect(refused).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED', data: { reason: 'keep-devices', via: 'click' } } });
    expect(refused.error?.message).toMatch(/Never take my pointer or keyboard/);
    expect(refused.method).toBeUndefined();
    expect(platform.inputLog).toHaveLength(sent);
  });
});

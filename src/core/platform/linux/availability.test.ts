import { describe, expect, it } from 'vitest';
import { DbusCallError, DbusDisconnectedError, DbusTimeoutError } from '../../../../native/linux/dbus';
import { briefly, noDisplayError, noSessionBusError, registryError, registryMissing } from './availability';

const call = { destination: 'org.a11y.atspi.Registry', path: '/', interface: 'org.a11y.atspi.Registry', member: 'RegisterEvent' };

describe('a broken desktop in words', () => {
  it('is one line, what is missing; how to fix it, with the reason for programs', () => {
    const error = noSessionBusError(undefined);
    expect(error.code).toBe('UI_NOT_AVAILABLE');
    expect(error.message).toMatch(
      /^no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is unset and no bus socket was found \(looked at [^;]*; this is a setup problem/,
    );
    expect(error.message).toMatch(/"env": \{"DISPLAY": "[^"]+", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\/run\/user\/\d+\/bus"\}/);
    expect(error.data).toMatchObject({ reason: 'no-a11y-bus', setup: true, what: expect.any(String), fix: expect.any(String) });
    expect(error.message).not.toContain('\n');
  });

  it('says wayland when a Wayland session has no X display, and no-display otherwise', () => {
    expect(noDisplayError({ WAYLAND_DISPLAY: 'wayland-0' }, 'DISPLAY is not set', 'synthetic input needs one').data?.['reason']).toBe('wayland');
    expect(noDisplayError({}, 'DISPLAY is not set', 'synthetic input needs one').data?.['reason']).toBe('no-display');
  });

  it('blames the missing X server for a dead registry, and the registry when the display is fine or Wayland needs none', async () => {
    const noReply = new DbusCallError('org.freedesktop.DBus.Error.NoReply', 'Message recipient disconnected', call);
    expect((await registryError({ DISPLAY: ':4711' }, noReply)).data?.['reason']).toBe('no-display');
    const wayland = await registryError({ WAYLAND_DISPLAY: 'wayland-0' }, noReply);
    expect(wayland.data?.['reason']).toBe('registry-gone');
    expect(wayland.message).toContain('(NoReply)');
    expect(wayland.message).not.toContain('org.freedesktop');
  });

  it('tells a missing registry from a bad request', () => {
    expect(registryMissing(new DbusCallError('org.freedesktop.DBus.Error.ServiceUnknown', 'x', call))).toBe(true);
    expect(registryMissing(new DbusTimeoutError(call, 2000))).toBe(true);
    expect(registryMissing(new DbusDisconnectedError('unix:path=/x', 'gone'))).toBe(true);
    expect(registryMissing(new DbusCallError('org.freedesktop.DBus.Error.InvalidArgs', 'x', call))).toBe(false);
    expect(briefly(new DbusTimeoutError(call, 2000))).toBe('no answer within 2000 ms');
  });
});

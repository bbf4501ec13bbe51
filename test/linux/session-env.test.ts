import { describe, expect, it } from 'vitest';
import { environmentLines } from './session-env';

describe('npm run session’s export lines', () => {
  it('name every variable the session sets or changes, GSK_RENDERER included, and unset the ones it removes', () => {
    const outer = { PATH: '/usr/bin', HOME: '/home/ada', WAYLAND_DISPLAY: 'wayland-0', NO_AT_BRIDGE: '1' };
    const session = { PATH: '/usr/bin', HOME: "/tmp/s/home's", DISPLAY: ':101', GSK_RENDERER: 'cairo', GDK_BACKEND: 'x11' };
    expect(environmentLines(session, outer)).toEqual([
      "export DISPLAY=':101'",
      "export GDK_BACKEND='x11'",
      "export GSK_RENDERER='cairo'",
      "export HOME='/tmp/s/home'\\''s'",
      'unset NO_AT_BRIDGE',
      'unset WAYLAND_DISPLAY',
    ]);
  });
});

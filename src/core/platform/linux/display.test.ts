import { describe, expect, it } from 'vitest';
import { assertDisplay, displaySocket } from './display';

describe('display check', () => {
  it('parses display names', () => {
    expect(displaySocket(':7')).toEqual({ path: '/tmp/.X11-unix/X7' });
    expect(displaySocket(':7.0')).toEqual({ path: '/tmp/.X11-unix/X7' });
    expect(displaySocket('localhost:2')).toEqual({ host: 'localhost', port: 6002 });
    expect(displaySocket('wayland-0')).toBeUndefined();
  });

  it('turns a missing display into UI_NOT_AVAILABLE instead of a segfault', async () => {
    await expect(assertDisplay({})).rejects.toMatchObject({ code: 'UI_NOT_AVAILABLE', message: expect.stringContaining('DISPLAY is not set') });
    await expect(assertDisplay({ DISPLAY: ':4711' })).rejects.toMatchObject({
      code: 'UI_NOT_AVAILABLE',
      message: expect.stringContaining('no X server listens on :4711'),
    });
    await expect(assertDisplay({ DISPLAY: '127.0.0.1:4711' }, 300)).rejects.toMatchObject({
      code: 'UI_NOT_AVAILABLE',
      message: expect.stringContaining('does not answer'),
    });
  });
});

import { describe, expect, it } from 'vitest';
import { UnsupportedOperationError } from '../../shared/errors';
import { createPlatform } from './factory';

describe('createPlatform', () => {
  it('picks the fake platform when DESKPILOT_PLATFORM=fake, whatever the OS', async () => {
    const platform = await createPlatform('win32', { DESKPILOT_PLATFORM: 'fake' });
    expect(platform.name).toBe('fake');
    expect((await platform.apps.list()).length).toBeGreaterThan(0);
  });

  it.each(['win32', 'sunos'])('raises UI_NOT_AVAILABLE on %s, naming what is supported', async (os) => {
    const platform = await createPlatform(os, {});
    const failure = await platform.apps.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnsupportedOperationError);
    expect(failure).toMatchObject({ code: 'UI_NOT_AVAILABLE' });
    expect((failure as Error).message).toContain('macOS (Accessibility) and Linux (AT-SPI2');
    await expect(platform.input.click({ x: 1, y: 1 })).rejects.toMatchObject({ code: 'UI_NOT_AVAILABLE' });
  });

  it.skipIf(process.platform === 'darwin')('says clearly when the macOS libraries cannot be loaded', async () => {
    await expect(createPlatform('darwin', {})).rejects.toMatchObject({
      code: 'UI_NOT_AVAILABLE',
      message: expect.stringContaining('the macOS accessibility libraries could not be loaded'),
    });
  });
});

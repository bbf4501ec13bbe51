import { describe, expect, it } from 'vitest';
import { assemblePlatform } from './platform';

describe('assemblePlatform', () => {
  it('is the backend createPlatform picks, with no screen text where it cannot capture windows', async () => {
    const platform = await assemblePlatform('win32', { DESKPILOT_PLATFORM: 'fake' });
    expect(platform.name).toBe('fake');
    expect(platform.screen).toBeUndefined();
    expect(platform.vision).toBeUndefined();
    await platform.close();
  });
});

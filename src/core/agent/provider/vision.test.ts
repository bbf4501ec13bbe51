import { describe, expect, it } from 'vitest';
import { visionFromEnv } from './vision';

describe('visionFromEnv', () => {
  it('reads DESKPILOT_VISION, and anything else is auto', () => {
    expect(visionFromEnv({ DESKPILOT_VISION: 'off' })).toBe('off');
    expect(visionFromEnv({ DESKPILOT_VISION: ' ON ' })).toBe('on');
    expect(visionFromEnv({ DESKPILOT_VISION: 'maybe' })).toBe('auto');
    expect(visionFromEnv({})).toBe('auto');
  });
});

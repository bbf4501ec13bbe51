import { describe, expect, it } from 'vitest';
import { keyName } from './input-events';

describe('keyName', () => {
  it.each([
    [0xff0d, 'return'],
    [0xff09, 'tab'],
    [0xffbe, 'f1'],
    [0xffc9, 'f12'],
    [0x41, 'a'],
    [0x73, 's'],
    [0x20, 'space'],
    [0xe9, 'é'],
    [0xffe1, undefined],
    [0x1008ff13, undefined],
  ])('keysym %s is %s', (keysym, name) => {
    expect(keyName(keysym)).toBe(name);
  });
});

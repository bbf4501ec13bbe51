import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { platformTraits } from './traits';

describe('platformTraits', () => {
  it('gives ⌘ as the primary modifier on macOS and ctrl everywhere else', () => {
    expect(platformTraits('darwin').primaryModifier).toBe('meta');
    for (const os of ['linux', 'win32', 'fake', 'freebsd']) expect(platformTraits(os).primaryModifier, os).toBe('ctrl');
  });

  it("knows a running app's help by its program on Linux, by its bundle's Help Book on macOS, by its name elsewhere", () => {
    const app = { name: 'node', pid: process.pid };
    if (process.platform === 'linux') expect(platformTraits('linux').appIdentity(app)).toEqual({ name: 'node', executable: realpathSync(process.execPath) });
    expect(platformTraits('darwin').appIdentity(app)).toEqual({ name: 'node', helpFormat: 'help-book' });
    expect(platformTraits('win32').appIdentity(app)).toEqual({ name: 'node' });
  });

  it('has desktop checks for the doctor on Linux and macOS only, none run until asked', () => {
    expect(
      platformTraits('linux')
        .diagnose({})
        .flatMap((part) => part.ids),
    ).toContain('a11y-bus');
    expect(
      platformTraits('darwin')
        .diagnose({})
        .flatMap((part) => part.ids),
    ).toEqual(['mac-accessibility', 'mac-input-monitoring', 'mac-screen-recording']);
    expect(platformTraits('win32').diagnose({})).toEqual([]);
  });
});

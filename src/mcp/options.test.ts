import { describe, expect, it } from 'vitest';
import { AppAllowList } from '../core/tools/allow-list';
import { DEFAULT_MAX_CHARS, parseMcpOptions } from './options';

describe('parseMcpOptions', () => {
  it('defaults to 20,000 characters, read-write, every app', () => {
    expect(parseMcpOptions({})).toEqual({ maxChars: DEFAULT_MAX_CHARS, readOnly: false, apps: undefined });
    expect(DEFAULT_MAX_CHARS).toBe(20_000);
  });

  it('reads --max-chars, --read-only and a trimmed --apps list', () => {
    expect(parseMcpOptions({ 'max-chars': '5000', 'read-only': true, apps: ' gedit, Zenity ,' })).toEqual({
      maxChars: 5000,
      readOnly: true,
      apps: ['gedit', 'Zenity'],
    });
  });

  it('refuses a bad budget or an empty app list with VALIDATION', () => {
    expect(() => parseMcpOptions({ 'max-chars': 'lots' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION', message: expect.stringContaining('--max-chars') }),
    );
    expect(() => parseMcpOptions({ 'max-chars': '10' })).toThrow(/at least 1000/);
    expect(() => parseMcpOptions({ apps: ' , ' })).toThrow(/--apps needs app names/);
  });
});

describe('AppAllowList', () => {
  const apps = [
    { pid: 1, name: 'gedit', windows: [] },
    { pid: 2, name: 'Zenity', windows: [] },
    { pid: 3, name: 'gedit-helper', windows: [] },
  ];

  it('allows everything without a list', () => {
    const list = new AppAllowList(undefined);
    expect(list.filter(apps)).toHaveLength(3);
    expect(() => list.check(apps[2] as (typeof apps)[number])).not.toThrow();
  });

  it('matches whole names without regard to case', () => {
    const list = new AppAllowList(['GEDIT', 'zenity']);
    expect(list.filter(apps).map((app) => app.pid)).toEqual([1, 2]);
  });

  it('refuses others with PERMISSION_DENIED naming the allowed apps', () => {
    const list = new AppAllowList(['gedit']);
    expect(() => list.check({ pid: 3, name: 'gedit-helper', windows: [] })).toThrow(
      expect.objectContaining({
        code: 'PERMISSION_DENIED',
        message: expect.stringContaining("app 'gedit-helper' (pid 3) is not in this server's allow-list (--apps gedit)"),
      }),
    );
  });
});

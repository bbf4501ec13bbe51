import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDir } from './data-dir';

describe('dataDir', () => {
  it('takes DESKPILOT_DATA_DIR first, on every OS', () => {
    for (const os of ['linux', 'darwin', 'win32', 'freebsd']) expect(dataDir({ DESKPILOT_DATA_DIR: '/data', HOME: '/home/u' }, os), os).toBe('/data');
  });

  it("asks the OS's traits for its place for app data", () => {
    const env = { HOME: '/home/u' };
    expect(dataDir(env, 'linux')).toBe(path.join('/home/u', '.local', 'share', 'deskpilot'));
    expect(dataDir({ ...env, XDG_DATA_HOME: '/xdg' }, 'linux')).toBe(path.join('/xdg', 'deskpilot'));
    expect(dataDir(env, 'darwin')).toBe(path.join('/home/u', 'Library', 'Application Support', 'Deskpilot'));
    expect(dataDir({ ...env, APPDATA: 'C:/AppData' }, 'win32')).toBe(path.join('C:/AppData', 'Deskpilot'));
    expect(dataDir(env, 'win32')).toBe(path.join('/home/u', 'AppData', 'Roaming', 'Deskpilot'));
    expect(dataDir(env, 'freebsd')).toBe(path.join('/home/u', '.local', 'share', 'deskpilot'));
  });

  it('counts an empty variable as unset', () => {
    expect(dataDir({ DESKPILOT_DATA_DIR: '', HOME: '/home/u', XDG_DATA_HOME: '' }, 'linux')).toBe(path.join('/home/u', '.local', 'share', 'deskpilot'));
  });
});

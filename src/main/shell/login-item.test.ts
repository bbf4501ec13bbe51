import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autostartFile, setOpenAtLogin } from './login-item';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-autostart-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('open at login', () => {
  it("uses Electron's login items on macOS and Windows", () => {
    const setLoginItemSettings = vi.fn();
    setOpenAtLogin(true, { platform: 'darwin', setLoginItemSettings, env: {}, command: [] });
    expect(setLoginItemSettings).toHaveBeenCalledWith({ openAtLogin: true });
  });

  it('writes and removes an XDG autostart entry on Linux', () => {
    const env = { XDG_CONFIG_HOME: dir };
    const deps = { platform: 'linux', setLoginItemSettings: vi.fn(), env, command: ['/opt/Deskpilot/deskpilot', '/home/me/my app'] };
    setOpenAtLogin(true, deps);
    const file = autostartFile(env);
    expect(file).toBe(path.join(dir, 'autostart', 'deskpilot.desktop'));
    expect(readFileSync(file, 'utf8')).toContain('Exec=/opt/Deskpilot/deskpilot "/home/me/my app"\n');
    setOpenAtLogin(false, deps);
    expect(existsSync(file)).toBe(false);
    expect(deps.setLoginItemSettings).not.toHaveBeenCalled();
  });
});

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface LoginItemDeps {
  platform: string;
  /** Electron's app.setLoginItemSettings: macOS and Windows only. */
  setLoginItemSettings: (settings: { openAtLogin: boolean }) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** The command that starts this app: the AppImage, the packaged binary, or electron plus the app folder in development. */
  command: readonly string[];
}

/** Quotes one Exec argument as the Desktop Entry spec wants. */
function quote(argument: string): string {
  return /^[\w./:+-]+$/.test(argument) ? argument : `"${argument.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function autostartFile(env: LoginItemDeps['env']): string {
  const configHome =
    env['XDG_CONFIG_HOME'] !== undefined && env['XDG_CONFIG_HOME'] !== '' ? env['XDG_CONFIG_HOME'] : path.join(env['HOME'] ?? homedir(), '.config');
  return path.join(configHome, 'autostart', 'deskpilot.desktop');
}

/**
 * Open at login. Electron has login items on macOS and Windows only; Linux desktops (GNOME,
 * KDE, Xfce, MATE) start what `~/.config/autostart/*.desktop` names (XDG Autostart spec).
 */
export function setOpenAtLogin(openAtLogin: boolean, deps: LoginItemDeps): void {
  if (deps.platform === 'darwin' || deps.platform === 'win32') {
    deps.setLoginItemSettings({ openAtLogin });
    return;
  }
  if (deps.platform !== 'linux') return;
  const file = autostartFile(deps.env);
  if (!openAtLogin) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Deskpilot',
      'Comment=Desktop assistant',
      `Exec=${deps.command.map(quote).join(' ')}`,
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
  );
}

import { X11Connection } from './connection';
import { X11Session } from './session';

/** A desktop has tens of windows; a display someone filled is read only this far. */
const MAX_WINDOWS = 200;
const MAX_CLASS_CHARS = 100;

/** WM_CLASS's two strings, instance then class ("libreoffice-writer", "libreoffice-writer"), bounded and without control characters. */
export function parseWmClass(value: Buffer): string[] {
  return value
    .toString('latin1')
    .split('\0')
    .map((part) => part.replace(/[^\x20-\x7e\xa0-\xff]/g, '').slice(0, MAX_CLASS_CHARS))
    .filter((part) => part !== '')
    .slice(0, 2);
}

/**
 * The WM_CLASS of each app's top-level windows, by _NET_WM_PID: how window managers and docks
 * tie a window to its desktop file (StartupWMClass). Empty where there is no X display (Wayland
 * without XWayland) or it does not answer in time: this is extra evidence, never required.
 */
export async function wmClassesByPid(env: Record<string, string | undefined>, timeoutMs = 500): Promise<Map<number, string[]>> {
  const byPid = new Map<number, string[]>();
  let x: X11Connection;
  try {
    x = await X11Connection.open(env, timeoutMs);
  } catch {
    return byPid;
  }
  try {
    const session = new X11Session(x);
    const { windows } = await session.topLevel();
    await Promise.all(
      windows.slice(-MAX_WINDOWS).map(async (window) => {
        const [pid, wmClass] = await Promise.all([session.pidOf(window), session.property(window, 'WM_CLASS')]);
        if (pid === undefined || wmClass?.format !== 8) return;
        const known = byPid.get(pid) ?? [];
        byPid.set(pid, [...new Set([...known, ...parseWmClass(wmClass.value)])]);
      }),
    );
  } catch {
    // A window that went away mid-read, or a display that stopped answering: what was read stands.
  } finally {
    x.close();
  }
  return byPid;
}

import { waitFrontmost } from '../frontmost-wait';
import type { AppListing } from '../types';
import type { AppDirectory } from './apps';
import { activateWindow } from './x11/activate-window';

/**
 * AppListing.activate for X11. Focusing an element through AT-SPI (GrabFocus) does not
 * activate its window, so keys would still go to whichever window is active, often
 * Deskpilot's own chat window. False, never a throw, when there is no X display, no window
 * for the pid, or the window manager did not bring the app forward (Wayland sessions too).
 */
export function createActivate(
  env: Record<string, string | undefined>,
  apps: AppDirectory,
  frontmost: AppListing['frontmost'],
): NonNullable<AppListing['activate']> {
  return async (pid, signal) => {
    const titles = (await apps.get(pid).catch(() => undefined))?.windows.map((window) => window.title) ?? [];
    if (signal?.aborted) return false;
    const outcome = await activateWindow(env, { pid, titles }).catch(() => 'failed' as const);
    if (outcome === 'no-window' || outcome === 'failed') return false;
    return waitFrontmost(frontmost, pid, signal);
  };
}

import type { AppListing } from '../types';
import type { AppDirectory } from './apps';
import { closeWindow } from './x11/close-window';

/**
 * AppListing.closeWindow for X11: the app's focused window (else its topmost one) is closed
 * through the window manager, or with WM_DELETE_WINDOW when none runs. False, never a throw,
 * when there is no display or no such window; the caller checks the window went.
 */
export function createCloseWindow(env: Record<string, string | undefined>, apps: AppDirectory): NonNullable<AppListing['closeWindow']> {
  return async (pid, signal) => {
    const windows = (await apps.get(pid).catch(() => undefined))?.windows ?? [];
    // The focused window's title first, so the window the user is in is the one that closes.
    const titles = [...windows.filter((window) => window.focused), ...windows.filter((window) => !window.focused)].map((window) => window.title);
    if (signal?.aborted) return false;
    const outcome = await closeWindow(env, { pid, titles }).catch(() => 'failed' as const);
    return outcome === 'window-manager' || outcome === 'delete-window';
  };
}

import { BrowserWindow, shell, type BrowserWindowConstructorOptions } from 'electron';
import path from 'node:path';
import type { Rect } from './window-bounds';

/** The renderer never gets Node, never shares a world with the preload, and runs sandboxed. */
export function chatWindowOptions(preloadPath: string, bounds?: Rect): BrowserWindowConstructorOptions {
  return {
    width: 460,
    height: 640,
    ...bounds,
    minWidth: 320,
    minHeight: 240,
    show: false,
    frame: false,
    alwaysOnTop: true,
    skipTaskbar: true,
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  };
}

/** Only https links leave the app, and they open in the system browser, never in our window. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Created hidden at start-up so the hotkey only has to show it. It floats above normal windows
 * ('floating' level); on macOS it also joins whichever Space is active, full-screen ones too,
 * so it appears where the user is instead of switching Spaces.
 */
export function createChatWindow(outDir: string, devServerUrl: string | undefined, bounds?: Rect, platform = process.platform): BrowserWindow {
  const window = new BrowserWindow(chatWindowOptions(path.join(outDir, '../preload/index.cjs'), bounds));
  window.setAlwaysOnTop(true, 'floating');
  if (platform === 'darwin') window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  if (devServerUrl !== undefined) void window.loadURL(devServerUrl);
  else void window.loadFile(path.join(outDir, '../renderer/index.html'));
  return window;
}

/** Saves the window's bounds a moment after the user stops moving or resizing it. */
export function rememberBounds(window: Pick<BrowserWindow, 'on' | 'getBounds'>, save: (bounds: Rect) => void, delayMs = 500): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => save(window.getBounds()), delayMs);
  };
  window.on('moved', schedule);
  window.on('resized', schedule);
}

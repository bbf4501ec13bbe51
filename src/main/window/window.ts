import { BrowserWindow, shell, type BrowserWindowConstructorOptions } from 'electron';
import path from 'node:path';
import { isHttpsUrl } from '../../shared/urls';
import type { Rect } from './window-bounds';

/**
 * The page to load instead of the built files: electron-vite's dev server while developing.
 * A packaged app ignores the variable, or anyone who can set it would get a page of their own
 * choosing with the whole preload bridge (ask, settings, links).
 */
export function devServerUrl(packaged: boolean, env: Readonly<Record<string, string | undefined>>): string | undefined {
  return packaged ? undefined : env['ELECTRON_RENDERER_URL'];
}

/**
 * The renderer never gets Node, never shares a world with the preload, and runs sandboxed.
 * A packaged app has no DevTools: they would run any code with the bridge.
 */
export function chatWindowOptions(preloadPath: string, bounds?: Rect, packaged = false): BrowserWindowConstructorOptions {
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
      devTools: !packaged,
    },
  };
}

/**
 * Created hidden at start-up so the hotkey only has to show it. It floats above normal windows
 * ('floating' level); on macOS it also joins whichever Space is active, full-screen ones too,
 * so it appears where the user is instead of switching Spaces.
 */
export function createChatWindow(outDir: string, pageUrl: string | undefined, bounds?: Rect, platform = process.platform, packaged = false): BrowserWindow {
  const window = new BrowserWindow(chatWindowOptions(path.join(outDir, '../preload/index.cjs'), bounds, packaged));
  window.setAlwaysOnTop(true, 'floating');
  if (platform === 'darwin') window.setVisibleOnAllWorkspaces(true, { visibleOnFullScreen: true });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isHttpsUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  // A chat window needs no camera, microphone, notifications, geolocation or clipboard reads:
  // refuse every request and every check, so a page that got in anyway gains nothing from them.
  window.webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  window.webContents.session.setPermissionCheckHandler(() => false);
  if (pageUrl !== undefined) void window.loadURL(pageUrl);
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

import { BrowserWindow, shell, type BrowserWindowConstructorOptions } from 'electron';
import path from 'node:path';

/** The renderer never gets Node, never shares a world with the preload, and runs sandboxed. */
export function chatWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 460,
    height: 640,
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

export function createChatWindow(outDir: string, devServerUrl: string | undefined): BrowserWindow {
  const window = new BrowserWindow(chatWindowOptions(path.join(outDir, '../preload/index.cjs')));
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event) => event.preventDefault());
  if (devServerUrl !== undefined) void window.loadURL(devServerUrl);
  else void window.loadFile(path.join(outDir, '../renderer/index.html'));
  return window;
}

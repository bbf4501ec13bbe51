import { app, type IpcMainInvokeEvent } from 'electron';
import { CHANNELS } from '../shared/ipc';
import { REQUEST_SCHEMAS } from '../shared/ipc-schemas';
import { handle } from './ipc';
import { createChatWindow } from './window';

// electron-vite sets this while developing; a packaged app loads the built files.
const devServerUrl = process.env['ELECTRON_RENDERER_URL'];

function start(): void {
  const window = createChatWindow(import.meta.dirname, devServerUrl);
  const isTrustedSender = (event: IpcMainInvokeEvent): boolean =>
    event.sender === window.webContents && event.senderFrame === window.webContents.mainFrame;
  handle(CHANNELS.appInfo, REQUEST_SCHEMAS[CHANNELS.appInfo], isTrustedSender, () => ({
    name: app.getName(),
    version: app.getVersion(),
    platform: process.platform,
  }));
  window.once('ready-to-show', () => window.show());
}

if (!app.requestSingleInstanceLock()) app.quit();
else void app.whenReady().then(start);
app.on('window-all-closed', () => app.quit());

import { dialog, type BrowserWindow } from 'electron';
import type { AppUpdater } from 'electron-updater';
import type { Translator } from '../../shared/i18n/i18n';

/** How often a running app looks for a new release, after the look at start-up. */
export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;

/** The part of electron-updater's autoUpdater this module drives. */
export type Updater = Pick<AppUpdater, 'autoDownload' | 'autoInstallOnAppQuit' | 'logger' | 'on' | 'checkForUpdates' | 'quitAndInstall'>;

/** The window the notice and the question go to: hidden windows are asked when next shown. */
export type UpdateWindow = Pick<BrowserWindow, 'isVisible' | 'isDestroyed' | 'once'>;

export interface UpdateDependencies {
  /** False when running from the sources (`npm start`): no updates in development. */
  isPackaged: boolean;
  window: UpdateWindow;
  i18n: Translator;
  /** Main's notice in the chat window (MainController.notice). */
  notice: (level: 'info', text: string) => void;
  log: (level: 'info' | 'warn' | 'error', text: string) => void;
  /** Called just before the restart: the window's close handler must let the app quit. */
  beforeRestart: () => void;
  /** electron-updater is loaded only in a packaged app; tests pass a fake. */
  loadUpdater?: () => Promise<Updater>;
  /** Asks to restart now; resolves true for "Restart now". Tests pass a fake. */
  askRestart?: (window: UpdateWindow, i18n: Translator, version: string) => Promise<boolean>;
}

/** electron-updater is CommonJS whose autoUpdater is a lazy getter, which Node's ESM import cannot see by name. */
async function loadAutoUpdater(): Promise<Updater> {
  const loaded = (await import('electron-updater')) as { default?: { autoUpdater: Updater }; autoUpdater?: Updater };
  const updater = loaded.default?.autoUpdater ?? loaded.autoUpdater;
  if (updater === undefined) throw new Error('electron-updater has no autoUpdater');
  return updater;
}

/** The system's question box, attached to the chat window. */
async function askRestart(window: UpdateWindow, { t }: Translator, version: string): Promise<boolean> {
  const { response } = await dialog.showMessageBox(window as BrowserWindow, {
    type: 'info',
    message: t('update.question', { version }),
    detail: t('update.questionDetail'),
    buttons: [t('update.restart'), t('update.later')],
    defaultId: 0,
    cancelId: 1,
  });
  return response === 0;
}

/**
 * Updates from the GitHub Releases the app was built for (electron-builder's `publish`, written
 * into the app as app-update.yml). A new version downloads in the background; once it is ready a
 * notice in the window says so, and the user is asked whether to restart now (when the window is
 * next shown, if it is hidden). "Later" installs it when Deskpilot quits. Off in development.
 */
export async function startUpdates(deps: UpdateDependencies): Promise<void> {
  if (!deps.isPackaged) return;
  const updater = await (deps.loadUpdater ?? loadAutoUpdater)();
  const { t } = deps.i18n;
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  updater.logger = {
    info: (message?: unknown) => deps.log('info', `update: ${String(message)}`),
    warn: (message?: unknown) => deps.log('warn', `update: ${String(message)}`),
    error: (message?: unknown) => deps.log('warn', `update: ${String(message)}`),
  };
  // No network, no release yet, a rate limit: worth a log line, never a notice.
  updater.on('error', (error) => deps.log('warn', `update check failed: ${error.message}`));

  const offered = new Set<string>();
  updater.on('update-downloaded', ({ version }) => {
    if (offered.has(version)) return;
    offered.add(version);
    deps.notice('info', t('update.ready', { version }));
    const ask = async (): Promise<void> => {
      if (deps.window.isDestroyed()) return;
      if (await (deps.askRestart ?? askRestart)(deps.window, deps.i18n, version)) {
        deps.beforeRestart();
        updater.quitAndInstall();
      }
    };
    const askLogged = (): void => void ask().catch((error: unknown) => deps.log('warn', `update restart failed: ${String(error)}`));
    if (deps.window.isVisible()) askLogged();
    else deps.window.once('show', askLogged);
  });

  const check = (): void => void updater.checkForUpdates().catch(() => undefined);
  check();
  setInterval(check, CHECK_INTERVAL_MS);
}

import { app, dialog, globalShortcut, safeStorage, screen, shell, systemPreferences, type IpcMainInvokeEvent, type Tray } from 'electron';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../shared/errors';
import { createI18n } from '../shared/i18n/i18n';
import { EVENT_CHANNEL, type AppEvent, type PermissionState } from '../shared/ipc';
import { MainController } from './controller';
import { HostClient } from './host-link/host-client';
import { runDoctorChild, keyringCheck } from './host-link/doctor-child';
import { spawnDoctorHost, spawnUtilityHost } from './host-link/host-process';
import { Hotkey } from './shell/hotkey';
import { registerIpcHandlers } from './ipc/ipc-handlers';
import { setOpenAtLogin as setLoginItem } from './shell/login-item';
import { SettingsService } from './settings/settings';
import { createHistoryStore, createSettingsStore } from './settings/stores';
import { Transcript } from './settings/transcript-store';
import { createTray, labelTray, type TrayActions } from './shell/tray';
import { createChatWindow, devServerUrl, rememberBounds } from './window/window';
import { startUpdates } from './update/updates';
import { visibleBounds } from './window/window-bounds';

/** The command-line flag a desktop shortcut runs Deskpilot with to show or hide its window. */
const TOGGLE_FLAG = '--toggle';

/** A constant, so it bypasses the https-only rule for links on purpose. */
const ACCESSIBILITY_SETTINGS_URL = 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility';

function accessibility(): PermissionState {
  if (process.platform !== 'darwin') return 'not_needed';
  return systemPreferences.isTrustedAccessibilityClient(false) ? 'granted' : 'denied';
}

function log(level: 'info' | 'warn' | 'error', text: string): void {
  const line = `deskpilot: ${text}`;
  if (level === 'info') process.stdout.write(`${line}\n`);
  else if (level === 'warn') console.warn(line);
  else console.error(line);
}

/** Work areas with the primary display first (where a window from an unplugged display goes). */
function workAreas(): Electron.Rectangle[] {
  const primary = screen.getPrimaryDisplay();
  return [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((display) => display.workArea);
}

function setOpenAtLogin(openAtLogin: boolean): void {
  // A packaged app is its own binary (an AppImage names itself in APPIMAGE); in development it is electron plus this folder.
  const appImage = process.env['APPIMAGE'];
  const command = appImage !== undefined ? [appImage] : app.isPackaged ? [process.execPath] : [process.execPath, app.getAppPath()];
  try {
    setLoginItem(openAtLogin, {
      platform: process.platform,
      setLoginItemSettings: (settings) => app.setLoginItemSettings(settings),
      env: process.env,
      command,
    });
  } catch (error) {
    log('warn', `could not change open at login: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Held for the app's lifetime: a Tray that is garbage-collected vanishes from the menu bar. */
let tray: Tray | undefined;

function start(): void {
  const settings = new SettingsService({
    store: createSettingsStore(),
    safeStorage,
    env: () => process.env,
    platform: process.platform,
    systemLanguages: () => app.getPreferredSystemLanguages(),
  });
  // Main's own words (tray, dialogs, notices, the hotkey's error) follow the UI's language.
  const i18n = createI18n(settings.language());
  const transcript = new Transcript({ store: createHistoryStore(), limit: () => settings.get('historyLimit') });
  const window = createChatWindow(
    import.meta.dirname,
    // electron-vite sets ELECTRON_RENDERER_URL while developing; a packaged app loads the built files.
    devServerUrl(app.isPackaged, process.env),
    visibleBounds(settings.get('windowBounds'), workAreas()),
    process.platform,
    app.isPackaged,
  );
  rememberBounds(window, (bounds) => settings.setWindowBounds(bounds));
  // A monitor unplugged while Deskpilot runs must not leave the window where nobody can see it.
  screen.on('display-removed', () => {
    const bounds = visibleBounds(window.getBounds(), workAreas());
    if (bounds !== undefined) window.setBounds(bounds);
  });
  const push = (event: AppEvent): void => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event);
  };

  // The callbacks below run only after start-up, once `main` exists.
  const supervisor = new HostClient({
    spawn: () => spawnUtilityHost(path.join(import.meta.dirname, 'host.js'), app.getPath('userData')),
    settings: () => settings.hostSettings(),
    onAgentEvent: (event) => main.agentEvent(event),
    onState: () => main.pushStatus(),
    onNotice: (level, text) => main.notice(level, text),
    i18n,
    onLog: log,
    onDocs: (status) => push({ type: 'docs', status }),
    onWorkflow: (event) => main.workflowEvent(event),
  });
  const hotkey = new Hotkey(globalShortcut, () => void main.toggle(), i18n);
  const main = new MainController({
    appInfo: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    supervisor,
    settings,
    transcript,
    hotkey,
    window,
    push,
    ownPids: () => app.getAppMetrics().map((metric) => metric.pid),
    accessibility,
    openExternal: (url) => shell.openExternal(url),
    openPermissionSettings: async () => {
      if (process.platform === 'darwin') await shell.openExternal(ACCESSIBILITY_SETTINGS_URL);
    },
    setOpenAtLogin,
    pickMcpConfig: async () => {
      const picked = await dialog.showOpenDialog(window, {
        title: i18n.t('settings.mcpImportTitle'),
        properties: ['openFile', 'showHiddenFiles'],
        filters: [{ name: 'JSON', extensions: ['json'] }],
      });
      const file = picked.canceled ? undefined : picked.filePaths[0];
      if (file === undefined) return undefined;
      try {
        return JSON.parse(await readFile(file, 'utf8')) as unknown;
      } catch (error) {
        throw new ValidationError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    doctor: ({ online }) =>
      runDoctorChild({
        spawn: () => spawnDoctorHost(path.join(import.meta.dirname, 'host.js'), app.getPath('userData')),
        settings: settings.hostSettings(),
        online: online === true,
        keyring: keyringCheck(safeStorage, process.platform),
      }),
    pickFolder: async () => {
      const picked = await dialog.showOpenDialog(window, { title: i18n.t('docs.dialogTitle'), properties: ['openDirectory'] });
      return picked.canceled ? undefined : picked.filePaths[0];
    },
    log,
    languageChanged: (language) => {
      void i18n.changeLanguage(language);
      if (tray !== undefined) labelTray(tray, trayActions, i18n);
    },
  });

  const isTrustedSender = (event: IpcMainInvokeEvent): boolean => event.sender === window.webContents && event.senderFrame === window.webContents.mainFrame;
  registerIpcHandlers(main.handlers(), isTrustedSender);
  supervisor.start();
  main.applyHotkey();
  // Refreshes the entry, whose command may have moved with an update; an off setting was applied when it changed.
  if (settings.get('openAtLogin')) setOpenAtLogin(true);
  const trayActions: TrayActions = {
    show: () => void main.show(),
    settings: () => void main.show('settings'),
    quit: () => app.quit(),
  };
  tray = createTray(path.join(app.getAppPath(), 'resources'), trayActions, i18n);

  // A frameless window has no close button, but Cmd+W / Alt+F4 still close it: hide instead.
  let quitting = false;
  app.on('before-quit', () => (quitting = true));
  window.on('close', (event) => {
    if (quitting) return;
    event.preventDefault();
    main.hide();
  });
  // From GitHub Releases in a packaged app only; a downloaded update is offered in the window.
  void startUpdates({
    isPackaged: app.isPackaged,
    window,
    i18n,
    log,
    notice: (level, text) => main.notice(level, text),
    beforeRestart: () => (quitting = true),
  }).catch((error: unknown) => log('warn', `updates are off: ${error instanceof Error ? error.message : String(error)}`));
  // Hidden until the hotkey, except on a first run: with no model set up there is no other sign the app started.
  if (!settings.configured()) window.once('ready-to-show', () => void main.show());
  // `deskpilot --toggle` from the desktop's own shortcut settings: the fallback where global
  // shortcuts cannot be registered (Wayland without the GlobalShortcuts portal).
  app.on('second-instance', (_event, argv: string[]) => void (argv.includes(TOGGLE_FLAG) ? main.toggle() : main.show()));
  app.on('will-quit', () => {
    hotkey.dispose();
    tray?.destroy();
    supervisor.shutdown();
    transcript.flush();
  });
}

// On Wayland, global shortcuts go through the desktop's GlobalShortcuts portal, which Chromium
// only asks when this feature is on (and which matches the app by package.json's desktopName).
if (process.platform === 'linux' && process.env['XDG_SESSION_TYPE'] === 'wayland') app.commandLine.appendSwitch('enable-features', 'GlobalShortcutsPortal');

if (!app.requestSingleInstanceLock()) app.quit();
else void app.whenReady().then(start);

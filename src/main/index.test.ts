/**
 * The whole main process wired together over a mocked Electron: single-instance lock, the
 * hidden window, the host as a (fake) utilityProcess, the hotkey, the tray and IPC.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, EVENT_CHANNEL } from '../shared/ipc';

const order: string[] = [];
// Vitest clears mock call records before each test, so start-up calls are kept here.
const startup: string[] = [];
const app = Object.assign(new EventEmitter(), {
  getPath: (name: string) => `/home/ada/.config/Deskpilot/${name}`,
  requestSingleInstanceLock: () => (startup.push('lock'), true),
  quit: () => startup.push('quit'),
  whenReady: vi.fn(() => Promise.resolve()),
  getName: () => 'Deskpilot',
  getVersion: () => '0.1.0',
  getAppPath: () => '/app',
  getAppMetrics: () => [{ pid: process.pid }],
  getPreferredSystemLanguages: () => ['pt-BR', 'en-US'],
  setLoginItemSettings: vi.fn(),
  isPackaged: false,
  commandLine: { appendSwitch: vi.fn() },
});
const HOTKEY = process.platform === 'darwin' ? 'Alt+Space' : 'Control+Alt+Space';

class FakeWindow extends EventEmitter {
  static last: FakeWindow | undefined;
  visible = false;
  readonly options: { show?: boolean };
  readonly sent: unknown[] = [];
  readonly webContents = {
    setWindowOpenHandler: vi.fn(),
    on: vi.fn(),
    send: (channel: string, event: unknown) => this.sent.push([channel, event]),
    mainFrame: {},
    session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
  };
  constructor(options: { show?: boolean }) {
    super();
    this.options = options;
    FakeWindow.last = this;
  }
  setAlwaysOnTop(): void {}
  setVisibleOnAllWorkspaces(): void {}
  loadFile = vi.fn(() => Promise.resolve());
  loadURL = vi.fn(() => Promise.resolve());
  isVisible = (): boolean => this.visible;
  isFocused = (): boolean => this.visible;
  setBounds = vi.fn();
  isDestroyed = (): boolean => false;
  show = (): void => {
    order.push('show');
    this.visible = true;
  };
  hide = (): void => {
    this.visible = false;
  };
  getBounds = () => ({ x: 0, y: 0, width: 460, height: 640 });
}

/** The host: says ready at once and answers frontmost with a text editor. */
class FakeHostProcess extends EventEmitter {
  static forks: { modulePath: string; args: string[] }[] = [];
  constructor() {
    super();
    setImmediate(() => this.emit('message', { rpc: 'event', event: 'ready', payload: { pid: 777 } }));
  }
  postMessage(message: { rpc: string; id?: number; method?: string }): void {
    if (message.rpc === 'request' && message.method === 'frontmost') {
      order.push('frontmost');
      setImmediate(() => this.emit('message', { rpc: 'result', id: message.id, value: { pid: 4242, app: 'gedit', title: 'notes' } }));
    }
    // Nothing hides its content here: no relaunch to offer.
    if (message.rpc === 'request' && message.method === 'relaunchOffer')
      setImmediate(() => this.emit('message', { rpc: 'result', id: message.id, value: null }));
  }
  kill(): boolean {
    return true;
  }
}

const shortcuts = new Map<string, () => void>();
const opened: string[] = [];
const ipcHandlers = new Map<string, unknown>();
const trayMenus: { label?: string; click?: () => void }[][] = [];

vi.mock('electron', () => ({
  app,
  BrowserWindow: FakeWindow,
  globalShortcut: {
    register: (accelerator: string, callback: () => void) => (shortcuts.set(accelerator, callback), true),
    unregister: (accelerator: string) => shortcuts.delete(accelerator),
  },
  ipcMain: { handle: (channel: string, handler: unknown) => ipcHandlers.set(channel, handler) },
  safeStorage: { isEncryptionAvailable: () => true, encryptString: (text: string) => Buffer.from(text), decryptString: (buffer: Buffer) => buffer.toString() },
  screen: { getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }), getAllDisplays: () => [], on: vi.fn() },
  shell: { openExternal: (url: string) => (opened.push(url), Promise.resolve()) },
  dialog: { showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }) },
  systemPreferences: { isTrustedAccessibilityClient: () => true },
  utilityProcess: {
    fork: (modulePath: string, args: string[]) => {
      FakeHostProcess.forks.push({ modulePath, args });
      return new FakeHostProcess();
    },
  },
  nativeImage: { createFromPath: () => ({ setTemplateImage: vi.fn() }) },
  Menu: { buildFromTemplate: (template: unknown) => template },
  Tray: class {
    setToolTip(): void {}
    setContextMenu(menu: { label?: string; click?: () => void }[]): void {
      trayMenus.push(menu);
    }
    on(): void {}
    destroy(): void {}
  },
}));

// In-memory stores: electron-store itself needs Electron's app paths.
vi.mock('./settings/stores', async () => {
  const { SETTINGS_DEFAULTS } = await import('./settings/settings-store');
  const memory = (initial: Record<string, unknown>) => {
    const values = new Map(Object.entries(initial));
    const set = (key: string | Record<string, unknown>, value?: unknown) => {
      for (const [name, each] of typeof key === 'string' ? [[key, value] as const] : Object.entries(key)) values.set(name, each);
    };
    return { get: (key: string) => values.get(key), set };
  };
  return { createSettingsStore: () => memory({ ...SETTINGS_DEFAULTS }), createHistoryStore: () => memory({ entries: [] }) };
});

await import('./index');
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('main process', () => {
  it('takes the single-instance lock and starts hidden, with the host, the hotkey, the tray and every channel', async () => {
    await settle();
    expect(startup).toEqual(['lock']);
    expect(FakeWindow.last?.options.show).toBe(false);
    expect(FakeWindow.last?.visible).toBe(false);
    expect(FakeHostProcess.forks).toEqual([{ modulePath: expect.stringMatching(/host\.js$/) as unknown, args: [`--main-pid=${process.pid}`] }]);
    expect([...shortcuts.keys()]).toEqual([HOTKEY]);
    // The OS prefers Brazilian Portuguese (getPreferredSystemLanguages above), and the setting says `system`.
    expect(trayMenus[0]?.map((item) => item.label).filter(Boolean)).toEqual(['Mostrar o Deskpilot', 'Configurações…', 'Sair do Deskpilot']);
    expect([...ipcHandlers.keys()].sort()).toEqual(Object.values(CHANNELS).sort());
  });

  it('shows itself once on a first run, when no model is set up yet', async () => {
    FakeWindow.last?.emit('ready-to-show');
    await settle();
    expect(FakeWindow.last?.visible).toBe(true);
    FakeWindow.last?.hide();
  });

  it('the hotkey records the frontmost app, then shows the window', async () => {
    order.length = 0;
    shortcuts.get(HOTKEY)?.();
    await settle();
    expect(order).toEqual(['frontmost', 'show']);
    const status = FakeWindow.last?.sent.findLast((entry) => (entry as [string, { type: string }])[1].type === 'status') as [
      string,
      { status: { target: unknown } },
    ];
    expect(status[0]).toBe(EVENT_CHANNEL);
    expect(status[1].status.target).toEqual({ pid: 4242, app: 'gedit', title: 'notes' });
  });

  it('a second instance shows the window, --toggle toggles it; closing it only hides it', async () => {
    FakeWindow.last?.hide();
    app.emit('second-instance', {}, ['electron', '.']);
    await settle();
    expect(FakeWindow.last?.visible).toBe(true);
    FakeWindow.last?.emit('focus');
    app.emit('second-instance', {}, ['deskpilot', '--toggle']);
    await settle();
    expect(FakeWindow.last?.visible).toBe(false);
    app.emit('second-instance', {}, ['deskpilot', '--toggle']);
    await settle();
    expect(FakeWindow.last?.visible).toBe(true);
    const event = { preventDefault: vi.fn() };
    FakeWindow.last?.emit('close', event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(FakeWindow.last?.visible).toBe(false);
  });

  it('opens https links and, on macOS, the Accessibility pane, for our window only', async () => {
    const window = FakeWindow.last;
    if (window === undefined) throw new Error('no window');
    const ours = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const invoke = (channel: string, event: unknown, payload?: unknown) =>
      (ipcHandlers.get(channel) as (event: unknown, payload: unknown) => Promise<unknown>)(event, payload);
    expect(await invoke(CHANNELS.openExternal, ours, { url: 'https://example.org' })).toEqual({ ok: true, value: undefined });
    expect(await invoke(CHANNELS.openExternal, { sender: {}, senderFrame: {} }, { url: 'https://evil.example' })).toMatchObject({ ok: false });
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    try {
      await invoke(CHANNELS.openPermissionSettings, ours);
    } finally {
      if (platform !== undefined) Object.defineProperty(process, 'platform', platform);
    }
    expect(opened).toEqual(['https://example.org', 'x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility']);
  });

  it('switches its own words (the tray) when the language setting changes, without a restart', async () => {
    const window = FakeWindow.last;
    if (window === undefined) throw new Error('no window');
    const ours = { sender: window.webContents, senderFrame: window.webContents.mainFrame };
    const update = ipcHandlers.get(CHANNELS.updateSettings) as (event: unknown, payload: unknown) => Promise<unknown>;
    expect(await update(ours, { language: 'en' })).toMatchObject({ ok: true, value: { language: 'en' } });
    expect(
      trayMenus
        .at(-1)
        ?.map((item) => item.label)
        .filter(Boolean),
    ).toEqual(['Show Deskpilot', 'Settings…', 'Quit Deskpilot']);
    expect(await update(ours, { language: 'system' })).toMatchObject({ ok: true });
    expect(trayMenus.at(-1)?.[0]?.label).toBe('Mostrar o Deskpilot');
  });
});

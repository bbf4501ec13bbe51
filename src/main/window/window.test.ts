import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const created: FakeWindow[] = [];

class FakeWindow extends EventEmitter {
  readonly options: unknown;
  readonly calls: unknown[][] = [];
  bounds = { x: 0, y: 0, width: 460, height: 640 };
  readonly permissions = {
    request: undefined as ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined,
    check: undefined as (() => boolean) | undefined,
  };
  readonly webContents = {
    setWindowOpenHandler: vi.fn(),
    on: vi.fn(),
    session: {
      setPermissionRequestHandler: (handler: NonNullable<FakeWindow['permissions']['request']>) => (this.permissions.request = handler),
      setPermissionCheckHandler: (handler: () => boolean) => (this.permissions.check = handler),
    },
  };
  constructor(options: unknown) {
    super();
    this.options = options;
    created.push(this);
  }
  setAlwaysOnTop(...args: unknown[]): void {
    this.calls.push(['setAlwaysOnTop', ...args]);
  }
  setVisibleOnAllWorkspaces(...args: unknown[]): void {
    this.calls.push(['setVisibleOnAllWorkspaces', ...args]);
  }
  loadURL = vi.fn(() => Promise.resolve());
  loadFile = vi.fn(() => Promise.resolve());
  getBounds(): typeof this.bounds {
    return this.bounds;
  }
}

vi.mock('electron', () => ({ BrowserWindow: FakeWindow, shell: { openExternal: vi.fn() } }));

const { chatWindowOptions, createChatWindow, devServerUrl, rememberBounds } = await import('./window');

beforeEach(() => {
  created.length = 0;
});

describe('chat window', () => {
  it('is sandboxed, isolated, without Node, hidden at start, floating and frameless', () => {
    const options = chatWindowOptions('/app/preload/index.cjs');
    expect(options.webPreferences).toEqual({
      preload: '/app/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: true,
    });
    expect(options).toMatchObject({ show: false, frame: false, alwaysOnTop: true, skipTaskbar: true });
  });

  it('opens where it was left', () => {
    expect(chatWindowOptions('/p', { x: 5, y: 6, width: 300, height: 400 })).toMatchObject({ x: 5, y: 6, width: 300, height: 400, show: false });
  });

  it("floats above other windows, and on macOS joins the user's current Space", () => {
    const mac = createChatWindow('/app/main', undefined, undefined, 'darwin') as unknown as FakeWindow;
    expect(mac.calls).toEqual([
      ['setAlwaysOnTop', true, 'floating'],
      ['setVisibleOnAllWorkspaces', true, { visibleOnFullScreen: true }],
    ]);
    expect(mac.loadFile).toHaveBeenCalledWith('/app/renderer/index.html');
    const linux = createChatWindow('/app/main', 'http://localhost:5173', undefined, 'linux') as unknown as FakeWindow;
    expect(linux.calls).toEqual([['setAlwaysOnTop', true, 'floating']]);
    expect(linux.loadURL).toHaveBeenCalledWith('http://localhost:5173');
  });

  it('saves its bounds once the user stops moving or resizing it', () => {
    vi.useFakeTimers();
    const window = new FakeWindow({});
    const saved: unknown[] = [];
    rememberBounds(window as never, (bounds) => saved.push(bounds), 500);
    window.bounds = { x: 10, y: 10, width: 460, height: 640 };
    window.emit('moved');
    vi.advanceTimersByTime(200);
    window.bounds = { x: 30, y: 40, width: 500, height: 600 };
    window.emit('resized');
    vi.advanceTimersByTime(500);
    expect(saved).toEqual([{ x: 30, y: 40, width: 500, height: 600 }]);
    vi.useRealTimers();
  });

  it('loads a dev server URL only when not packaged: a packaged app never gives the bridge to another page', () => {
    const env = { ELECTRON_RENDERER_URL: 'https://attacker.example' };
    expect(devServerUrl(false, env)).toBe('https://attacker.example');
    expect(devServerUrl(true, env)).toBeUndefined();
  });

  it('has no DevTools when packaged', () => {
    expect(chatWindowOptions('/p', undefined, true).webPreferences?.devTools).toBe(false);
    const window = createChatWindow('/app/main', undefined, undefined, 'linux', true) as unknown as FakeWindow;
    expect((window.options as { webPreferences: { devTools: boolean } }).webPreferences.devTools).toBe(false);
  });

  it('denies every permission request and check', () => {
    const window = createChatWindow('/app/main', undefined, undefined, 'linux') as unknown as FakeWindow;
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read'])
      window.permissions.request?.({}, permission, (granted) => answers.push(granted));
    expect(answers).toEqual([false, false, false, false]);
    expect(window.permissions.check?.()).toBe(false);
  });
});

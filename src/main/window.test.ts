import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const created: FakeWindow[] = [];

class FakeWindow extends EventEmitter {
  readonly options: unknown;
  readonly calls: unknown[][] = [];
  bounds = { x: 0, y: 0, width: 460, height: 640 };
  readonly webContents = { setWindowOpenHandler: vi.fn(), on: vi.fn() };
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

const { chatWindowOptions, createChatWindow, isSafeExternalUrl, rememberBounds } = await import('./window');

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

  it('lets only https links out', () => {
    expect(isSafeExternalUrl('https://example.org/docs')).toBe(true);
    expect(isSafeExternalUrl('http://example.org')).toBe(false);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });
});

import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n';
import { CHECK_INTERVAL_MS, startUpdates, type UpdateDependencies, type Updater } from './updates';

const { showMessageBox } = vi.hoisted(() => ({
  showMessageBox: vi.fn((_window: unknown, _options: { buttons: string[] }) => Promise.resolve({ response: 0, checkboxChecked: false })),
}));
vi.mock('electron', () => ({ dialog: { showMessageBox } }));

/** electron-updater's autoUpdater as far as this module drives it. */
class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  logger: Updater['logger'] = null;
  checks = 0;
  checkResult: Promise<null> = Promise.resolve(null);
  readonly quitAndInstall = vi.fn();
  checkForUpdates(): Promise<null> {
    this.checks += 1;
    return this.checkResult;
  }
}

class FakeWindow extends EventEmitter {
  visible = true;
  isVisible = (): boolean => this.visible;
  isDestroyed = (): boolean => false;
}

function setUp(overrides: Partial<UpdateDependencies> = {}) {
  const updater = new FakeUpdater();
  const window = new FakeWindow();
  const notices: string[] = [];
  const logs: string[] = [];
  const order: string[] = [];
  updater.quitAndInstall.mockImplementation(() => order.push('quitAndInstall'));
  const deps: UpdateDependencies = {
    isPackaged: true,
    window: window as unknown as UpdateDependencies['window'],
    i18n: createI18n('en'),
    notice: (_level, text) => notices.push(text),
    log: (level, text) => logs.push(`${level}: ${text}`),
    beforeRestart: () => order.push('beforeRestart'),
    loadUpdater: () => Promise.resolve(updater as unknown as Updater),
    ...overrides,
  };
  return { updater, window, notices, logs, order, deps };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('startUpdates', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('does nothing in development: electron-updater is not even loaded', async () => {
    const loadUpdater = vi.fn();
    await startUpdates({ ...setUp().deps, isPackaged: false, loadUpdater });
    expect(loadUpdater).not.toHaveBeenCalled();
  });

  it('checks at start and every six hours, downloading and installing on quit by itself', async () => {
    const { updater, deps } = setUp();
    await startUpdates(deps);
    expect(updater).toMatchObject({ autoDownload: true, autoInstallOnAppQuit: true, checks: 1 });
    vi.advanceTimersByTime(CHECK_INTERVAL_MS);
    expect(updater.checks).toBe(2);
  });

  it('logs a failed check and never shows it: no network is not the user’s problem', async () => {
    const { updater, deps, notices, logs } = setUp();
    updater.checkResult = Promise.reject(new Error('net::ERR_INTERNET_DISCONNECTED'));
    await startUpdates(deps);
    updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
    await flush();
    expect(notices).toEqual([]);
    expect(logs).toContain('warn: update check failed: net::ERR_INTERNET_DISCONNECTED');
    updater.logger?.info('Checking for update');
    expect(logs).toContain('info: update: Checking for update');
  });

  it('says in the window that the update is ready and restarts when the user says so', async () => {
    const { updater, deps, notices, order } = setUp();
    await startUpdates(deps);
    updater.emit('update-downloaded', { version: '0.2.0' });
    await flush();
    expect(notices).toEqual(['Deskpilot 0.2.0 is downloaded. It installs the next time Deskpilot quits, or now if you restart.']);
    expect(showMessageBox).toHaveBeenCalledWith(deps.window, expect.objectContaining({ buttons: ['Restart now', 'Later'], cancelId: 1 }));
    // The window's close handler hides instead of closing unless it knows the app is quitting.
    expect(order).toEqual(['beforeRestart', 'quitAndInstall']);
  });

  it('leaves the update for the next quit on Later, and asks once per version', async () => {
    const askRestart = vi.fn(() => Promise.resolve(false));
    const { updater, deps, notices, order } = setUp({ askRestart });
    await startUpdates(deps);
    updater.emit('update-downloaded', { version: '0.2.0' });
    updater.emit('update-downloaded', { version: '0.2.0' });
    await flush();
    expect(askRestart).toHaveBeenCalledTimes(1);
    expect(notices).toHaveLength(1);
    expect(order).toEqual([]);
  });

  it('asks when the hidden window is next shown, in the UI’s language', async () => {
    const askRestart = vi.fn(() => Promise.resolve(true));
    const { updater, window, deps, notices, order } = setUp({ askRestart, i18n: createI18n('pt-BR') });
    window.visible = false;
    await startUpdates(deps);
    updater.emit('update-downloaded', { version: '0.2.0' });
    await flush();
    expect(notices).toEqual(['O Deskpilot 0.2.0 foi baixado. Ele será instalado na próxima vez que o Deskpilot fechar, ou agora, se você reiniciar.']);
    expect(askRestart).not.toHaveBeenCalled();
    window.emit('show');
    await flush();
    expect(askRestart).toHaveBeenCalledWith(deps.window, deps.i18n, '0.2.0');
    expect(order).toEqual(['beforeRestart', 'quitAndInstall']);
  });
});

describe('electron-updater as main loads it', () => {
  it('has autoUpdater on its CommonJS default export only: a lazy getter Node cannot name', async () => {
    const loaded = (await import('electron-updater')) as { default?: object; autoUpdater?: unknown };
    expect(Object.getOwnPropertyDescriptor(loaded.default, 'autoUpdater')?.get).toBeTypeOf('function');
  });
});

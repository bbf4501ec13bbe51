import type { Pointer } from '../../../../native/macos';
import { ProcessExitedError, TimeoutError } from '../../../shared/errors';
import type { AppInfo, WindowInfo } from '../../../shared/ui-node';
import { identityText } from '../identity-text';
import { ACTIVATE_WAIT_MS, waitFrontmost } from '../frontmost-wait';
import type { AppListing, Point, WindowOwner } from '../types';
import { AXError, NoAccessibilityError } from './ax-errors';
import type { AxClient } from './ax-client';
import { raiseWindow, type WindowKey } from './window-key';
import { windowOwnerAt } from './window-list';
import { runningApplication, runningApplications, type RunningApp } from './workspace';

export interface MacAppsOptions {
  /** Deskpilot's own processes (the automation host and the Electron main process): never listed, never frontmost. */
  ownPids: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  /** The key of the window that holds the element last acted on in this app, if any. */
  windowOf?: (pid: number) => WindowKey | undefined;
}

/** Running apps from the window list and NSRunningApplication (workspace.ts), windows and the focused app from AX. */
export class MacApps implements AppListing {
  private readonly bundles = new Map<number, string>();

  constructor(
    private readonly client: AxClient,
    private readonly systemWide: Pointer,
    private readonly options: MacAppsOptions,
  ) {}

  async list(): Promise<AppInfo[]> {
    const running = runningApplications(this.client.cf, this.client.isAlive).filter((app) => !this.options.ownPids.includes(app.pid));
    this.bundles.clear();
    for (const app of running) if (app.bundleId !== undefined) this.bundles.set(app.pid, app.bundleId);
    const focused = await this.focusedPid().catch((error: unknown) => {
      unresponsive(error);
      return undefined;
    });
    const apps: AppInfo[] = [];
    // One app at a time: AX calls into one app are served by its main thread anyway.
    for (const app of running) apps.push(await this.describe(app, focused));
    return apps;
  }

  /** The app with keyboard focus: AXFocusedApplication on the system-wide element. */
  async frontmost(): Promise<AppInfo | undefined> {
    const pid = await this.focusedPid();
    if (pid === undefined || this.options.ownPids.includes(pid)) return undefined;
    const running = runningApplication(this.client.native, pid) ?? { pid, name: '' };
    return this.describe(running, pid);
  }

  /**
   * Whose window a click at the point would land in (window-list.ts windowOwnerAt), asked by the
   * engine before synthetic input. Deskpilot's own windows are answered like any other: a click
   * there would not reach the app either.
   */
  windowAt(point: Point): Promise<WindowOwner | undefined> {
    return Promise.resolve(windowOwnerAt(this.client.cf, point));
  }

  /**
   * AXFrontmost = true on the app element: AX's own way to activate an app, with no ObjC and
   * no Apple Events grant. That brings the app forward, not the window that holds the element
   * acted on, so that window is then made main and raised (window-key.ts raiseWindow), found by
   * its key, not by its index in AXWindows, which the stacking order changes. The app first,
   * then the window, as AXorcist's focusWindow() does: setting AXMain before AXFrontmost focused
   * the wrong window on macOS 26 (Hammerspoon2#228), since activation brings the app's own key
   * window forward. The app answers asynchronously, so frontmost() is polled after.
   */
  async activate(pid: number, signal?: AbortSignal): Promise<boolean> {
    const { cf, native } = this.client;
    const code = await cf.owned(this.client.application(pid), async (app) => {
      const code = await this.client.set(app, 'AXFrontmost', native.kCFBooleanTrue);
      const key = this.options.windowOf?.(pid);
      if (code === AXError.Success && key !== undefined) await raiseWindow(this.client, app, pid, key);
      return code;
    });
    // A stale grant is the user's to fix, not "the app would not come forward".
    if (code === AXError.APIDisabled) throw this.client.fail(code, 'AXUIElementSetAttributeValue(AXFrontmost)', pid);
    if (code !== AXError.Success) return false;
    return waitFrontmost(() => this.frontmost(), pid, signal, ACTIVATE_WAIT_MS, this.options.sleep);
  }

  isAlive(pid: number): Promise<boolean> {
    return Promise.resolve(this.client.isAlive(pid));
  }

  /**
   * From the last list(), else asked of NSRunningApplication for this pid now: callers need it
   * before any list() ran, and for a browser started after it (which then gets its switch).
   */
  bundleIdOf(pid: number): string | undefined {
    const known = this.bundles.get(pid);
    if (known !== undefined) return known;
    let bundleId: string | undefined;
    try {
      bundleId = runningApplication(this.client.native, pid)?.bundleId;
    } catch {
      // Without NSWorkspace the app is read as a non-browser, rather than failing the tree read.
      return undefined;
    }
    if (bundleId !== undefined) this.bundles.set(pid, bundleId);
    return bundleId;
  }

  async focusedPid(): Promise<number | undefined> {
    const app = await this.client.copy(this.systemWide, 'AXFocusedApplication', 0);
    if (app === undefined) return undefined;
    return this.client.cf.owned(app, (app) => this.client.pidOf(app));
  }

  private async describe(app: RunningApp, focused: number | undefined): Promise<AppInfo> {
    const windows = await this.windows(app.pid).catch(unresponsive);
    const why = windows === 'no accessibility' ? 'no accessibility' : 'not responding';
    const bundleId = identityText(app.bundleId);
    return {
      pid: app.pid,
      name: Array.isArray(windows) ? app.name : `${app.name || 'app'} (${why}, pid ${app.pid})`,
      windows: Array.isArray(windows) ? windows : [],
      // The bundle id is the app's identity a workflow records (as Linux records its desktop id).
      ...(bundleId === undefined ? {} : { desktopId: bundleId }),
      ...(app.pid === focused ? { frontmost: true } : {}),
    };
  }

  private async windows(pid: number): Promise<WindowInfo[]> {
    const { cf } = this.client;
    return cf.owned(this.client.application(pid), async (element) => {
      const windows = await this.client.copy(element, 'AXWindows', pid);
      if (windows === undefined) return [];
      return cf.owned(windows, async (windows) => {
        const described: WindowInfo[] = [];
        for (const window of cf.arrayItems(windows)) {
          const title = await this.client.copy(window, 'AXTitle', pid);
          const text = title === undefined ? undefined : cf.ownedSync(title, (title) => cf.toJs(title));
          described.push({ title: typeof text === 'string' ? text : '' });
        }
        return described;
      });
    });
  }
}

/**
 * Only an app that did not answer, went away, or speaks no accessibility is listed without
 * windows; anything else (PERMISSION_DENIED above all) is the caller's to see, or every app
 * would look frozen.
 */
function unresponsive(error: unknown): undefined | 'no accessibility' {
  if (error instanceof NoAccessibilityError) return 'no accessibility';
  if (error instanceof TimeoutError || error instanceof ProcessExitedError) return undefined;
  throw error;
}

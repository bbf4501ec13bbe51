import type { Pointer } from '../../../../native/macos';
import { ProcessExitedError, TimeoutError } from '../../../shared/errors';
import type { AppInfo, WindowInfo } from '../../../shared/ui-node';
import { ACTIVATE_WAIT_MS, waitFrontmost } from '../frontmost-wait';
import type { AppListing } from '../types';
import { AXError } from './ax-errors';
import type { AxClient } from './ax-client';
import { runningApplications, type RunningApp } from './workspace';

/** Running apps from NSWorkspace, windows and the focused app from AX. */
export class MacApps implements AppListing {
  private readonly bundles = new Map<number, string>();

  constructor(
    private readonly client: AxClient,
    private readonly systemWide: Pointer,
    private readonly ownPid = process.pid,
    private readonly sleep?: (ms: number) => Promise<void>,
  ) {}

  async list(): Promise<AppInfo[]> {
    const running = runningApplications(this.client.native).filter((app) => app.pid !== this.ownPid);
    this.bundles.clear();
    for (const app of running) if (app.bundleId !== undefined) this.bundles.set(app.pid, app.bundleId);
    const focused = await this.focusedPid().catch(unresponsive);
    const apps: AppInfo[] = [];
    // One app at a time: AX calls into one app are served by its main thread anyway.
    for (const app of running) apps.push(await this.describe(app, focused));
    return apps;
  }

  /** The app with keyboard focus: AXFocusedApplication on the system-wide element. */
  async frontmost(): Promise<AppInfo | undefined> {
    const pid = await this.focusedPid();
    if (pid === undefined || pid === this.ownPid) return undefined;
    const running = runningApplications(this.client.native).find((app) => app.pid === pid) ?? { pid, name: '' };
    return this.describe(running, pid);
  }

  /**
   * AXFrontmost = true on the app element: AX's own way to activate an app, with no ObjC and
   * no Apple Events grant. The app answers asynchronously, so frontmost() is polled after.
   */
  async activate(pid: number, signal?: AbortSignal): Promise<boolean> {
    const { cf, native } = this.client;
    const code = await cf.owned(this.client.application(pid), (app) => this.client.set(app, 'AXFrontmost', native.kCFBooleanTrue));
    // A stale grant is the user's to fix, not "the app would not come forward".
    if (code === AXError.APIDisabled) throw this.client.fail(code, 'AXUIElementSetAttributeValue(AXFrontmost)', pid);
    if (code !== AXError.Success) return false;
    return waitFrontmost(() => this.frontmost(), pid, signal, ACTIVATE_WAIT_MS, this.sleep);
  }

  isAlive(pid: number): Promise<boolean> {
    return Promise.resolve(this.client.isAlive(pid));
  }

  /** From the last list(), else asked of NSWorkspace for this pid: callers need it before any list() ran. */
  bundleIdOf(pid: number): string | undefined {
    const known = this.bundles.get(pid);
    if (known !== undefined) return known;
    let bundleId: string | undefined;
    try {
      bundleId = runningApplications(this.client.native).find((app) => app.pid === pid)?.bundleId;
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
    return {
      pid: app.pid,
      name: windows === undefined ? `${app.name || 'app'} (not responding, pid ${app.pid})` : app.name,
      windows: windows ?? [],
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
 * Only an app that did not answer, or went away, is listed without windows; anything else
 * (PERMISSION_DENIED above all) is the caller's to see, or every app would look frozen.
 */
function unresponsive(error: unknown): undefined {
  if (error instanceof TimeoutError || error instanceof ProcessExitedError) return undefined;
  throw error;
}

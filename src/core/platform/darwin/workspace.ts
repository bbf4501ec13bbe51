import type { MacNative, Nullable, Pointer } from '../../../../native/macos';
import { UnsupportedOperationError } from '../../../shared/errors';
import type { CfRuntime } from './cf';
import { windowOwnerPids } from './window-list';

export interface RunningApp {
  pid: number;
  name: string;
  bundleId?: string;
}

/** NSApplicationActivationPolicyRegular: apps with a Dock icon and windows, not agents or daemons. */
const ACTIVATION_POLICY_REGULAR = 0;

/**
 * The running regular apps, current at every call, through the fixed-shape objc_msgSend bindings.
 *
 * `[[NSWorkspace sharedWorkspace] runningApplications]` alone is not: its list and its apps'
 * properties only change "until the next turn of the main run loop in a common mode" (Apple's
 * NSRunningApplication documentation), and neither plain Node nor Electron's utilityProcess turns
 * a CFRunLoop on the JS thread. Read there, the list freezes at its first read: apps launched
 * later are missing, quit apps stay (y3owk1n/mimi#69, found the same way). So, as mimi does since
 * its PR #79 (internal/native/window.m), the pids come from the WindowServer's window list
 * (CGWindowListCopyWindowInfo, a query with no run loop behind it) joined with the workspace's
 * list (which still has windowless apps that ran before the first read), and each pid is looked
 * up on its own with +[NSRunningApplication runningApplicationWithProcessIdentifier:], which
 * answers for that pid now. A pid that is no longer alive is dropped.
 *
 * Declined: turning the run loop ourselves (CFRunLoopRunInMode) before each read. In the
 * utilityProcess the main thread's run loop also carries Chromium's and Node's sources, and
 * running it from inside a JS call would run their work re-entrantly.
 *
 * Every ObjC result is autoreleased; nothing drains a pool outside a Cocoa run loop, so an
 * explicit one does.
 */
export function runningApplications(cf: CfRuntime, isAlive: (pid: number) => boolean): RunningApp[] {
  return withPool(cf.native, (objc) => {
    const pids = new Set<number>([...objc.workspacePids(), ...windowOwnerPids(cf)]);
    const apps: RunningApp[] = [];
    for (const pid of pids) {
      if (!isAlive(pid)) continue;
      const app = objc.describe(pid);
      if (app !== undefined) apps.push(app);
    }
    return apps;
  });
}

/** One regular app by pid, asked now; undefined for a process that is no app, or gone. */
export function runningApplication(native: MacNative, pid: number): RunningApp | undefined {
  return withPool(native, (objc) => objc.describe(pid));
}

function withPool<T>(native: MacNative, work: (objc: Objc) => T): T {
  const pool = native.objc_autoreleasePoolPush();
  try {
    return work(new Objc(native));
  } finally {
    native.objc_autoreleasePoolPop(pool);
  }
}

/** The messages sent, one fixed binding per shape (never a variadic objc_msgSend). */
class Objc {
  private readonly selectors = new Map<string, Pointer>();

  constructor(private readonly native: MacNative) {}

  /** The pids in NSWorkspace's list, which may be stale (see runningApplications). */
  workspacePids(): number[] {
    const { native } = this;
    const workspace = native.msgSendId(this.class('NSWorkspace'), this.sel('sharedWorkspace'));
    const list = workspace === null ? null : native.msgSendId(workspace, this.sel('runningApplications'));
    if (list === null) return [];
    const count = Number(native.msgSendLong(list, this.sel('count')));
    const pids: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const app = native.msgSendIdIndex(list, this.sel('objectAtIndex:'), index);
      const pid = app === null ? 0 : native.msgSendInt32(app, this.sel('processIdentifier'));
      if (pid > 0) pids.push(pid);
    }
    return pids;
  }

  /** The app with this pid as NSRunningApplication sees it now, if it is a regular app. */
  describe(pid: number): RunningApp | undefined {
    const { native } = this;
    const app = native.msgSendIdPid(this.class('NSRunningApplication'), this.sel('runningApplicationWithProcessIdentifier:'), pid);
    if (app === null || Number(native.msgSendLong(app, this.sel('activationPolicy'))) !== ACTIVATION_POLICY_REGULAR) return undefined;
    const bundleId = this.string(native.msgSendId(app, this.sel('bundleIdentifier')));
    return { pid, name: this.string(native.msgSendId(app, this.sel('localizedName'))), ...(bundleId === '' ? {} : { bundleId }) };
  }

  private class(name: string): Pointer {
    const found = this.native.objc_getClass(name);
    if (found === null) throw new UnsupportedOperationError(`AppKit is not loaded: ${name} is unavailable`);
    return found;
  }

  private sel(name: string): Pointer {
    let selector = this.selectors.get(name);
    if (selector === undefined) {
      selector = this.native.sel_registerName(name);
      this.selectors.set(name, selector);
    }
    return selector;
  }

  private string(object: Nullable): string {
    return object === null ? '' : (this.native.msgSendCString(object, this.sel('UTF8String')) ?? '');
  }
}

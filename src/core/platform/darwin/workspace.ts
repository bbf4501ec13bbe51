import type { MacNative, Nullable, Pointer } from '../../../../native/macos';
import { UnsupportedOperationError } from '../../../shared/errors';

export interface RunningApp {
  pid: number;
  name: string;
  bundleId?: string;
}

/** NSApplicationActivationPolicyRegular: apps with a Dock icon and windows, not agents or daemons. */
const ACTIVATION_POLICY_REGULAR = 0;

/**
 * [[NSWorkspace sharedWorkspace] runningApplications], regular apps only, through the
 * fixed-shape objc_msgSend bindings. The results are autoreleased; outside a Cocoa run loop
 * (the automation host is plain Node) nothing drains them, so an explicit pool does.
 */
export function runningApplications(native: MacNative): RunningApp[] {
  const pool = native.objc_autoreleasePoolPush();
  try {
    const selectors = new Map<string, Pointer>();
    const sel = (name: string): Pointer => {
      let selector = selectors.get(name);
      if (selector === undefined) {
        selector = native.sel_registerName(name);
        selectors.set(name, selector);
      }
      return selector;
    };
    const string = (object: Nullable): string => (object === null ? '' : (native.msgSendCString(object, sel('UTF8String')) ?? ''));
    const workspaceClass = native.objc_getClass('NSWorkspace');
    if (workspaceClass === null) throw new UnsupportedOperationError('AppKit is not loaded: NSWorkspace is unavailable');
    const workspace = native.msgSendId(workspaceClass, sel('sharedWorkspace'));
    const list = workspace === null ? null : native.msgSendId(workspace, sel('runningApplications'));
    if (list === null) return [];
    const apps: RunningApp[] = [];
    const count = Number(native.msgSendLong(list, sel('count')));
    for (let index = 0; index < count; index += 1) {
      const app = native.msgSendIdIndex(list, sel('objectAtIndex:'), index);
      if (app === null || Number(native.msgSendLong(app, sel('activationPolicy'))) !== ACTIVATION_POLICY_REGULAR) continue;
      const pid = native.msgSendInt32(app, sel('processIdentifier'));
      if (pid <= 0) continue;
      const bundleId = string(native.msgSendId(app, sel('bundleIdentifier')));
      apps.push({ pid, name: string(native.msgSendId(app, sel('localizedName'))), ...(bundleId === '' ? {} : { bundleId }) });
    }
    return apps;
  } finally {
    native.objc_autoreleasePoolPop(pool);
  }
}

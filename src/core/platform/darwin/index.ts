import { loadMacNative, type MacNative, type Pointer } from '../../../../native/macos';
import { UnsupportedOperationError } from '../../../shared/errors';
import { createNutInput } from '../nut-input';
import type { InputBackend, Platform } from '../types';
import { MacAccessibility } from './accessibility';
import { MacApps } from './apps';
import { AxClient } from './ax-client';
import { isProcessAlive } from '../process';
import { CfRuntime } from './cf';
import { CgEventInput } from './cgevent-input';
import { ChromiumEnabler, containsWebArea } from './electron';
import { DarwinInput } from './input';
import { checkAccessibility, requestAccessibility, type AccessibilityStatus } from './permissions';
import { TreeWalker } from './tree-walk';

export { PERMISSION_HELP, permissionDenied } from './ax-errors';
export { assertAccessibility, checkAccessibility, requestAccessibility, type AccessibilityStatus } from './permissions';

/**
 * The global cap on one AX call, set on the system-wide element (process-wide). A hung
 * app then costs this long per call instead of the system default (~6 s, undocumented).
 */
export const MESSAGING_TIMEOUT_SECONDS = 1.5;

export interface DarwinDependencies {
  native?: MacNative;
  loadNut?: () => Promise<InputBackend>;
  sleep?: (ms: number) => Promise<void>;
  isAlive?: (pid: number) => boolean;
  ownPid?: number;
}

/** A missing framework or koffi binary becomes UI_NOT_AVAILABLE with the reason, not a raw dlopen error. */
async function loadNative(): Promise<MacNative> {
  try {
    return await loadMacNative();
  } catch (error) {
    throw new UnsupportedOperationError(`the macOS accessibility libraries could not be loaded: ${(error as Error).message}`, { cause: error });
  }
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function createDarwinPlatform(dependencies: DarwinDependencies = {}): Promise<Platform> {
  const native = dependencies.native ?? (await loadNative());
  const cf = new CfRuntime(native);
  const client = new AxClient(cf, dependencies.isAlive ?? isProcessAlive);
  const systemWide: Pointer | null = native.AXUIElementCreateSystemWide();
  if (systemWide === null) throw new Error('AXUIElementCreateSystemWide returned NULL');
  // Best effort: a failure leaves the system default, which is slower but still bounded.
  native.AXUIElementSetMessagingTimeout(systemWide, MESSAGING_TIMEOUT_SECONDS);
  const apps = new MacApps(client, systemWide, dependencies.ownPid, dependencies.sleep ?? realSleep);
  const walker = new TreeWalker(client);
  const enabler = new ChromiumEnabler(client, {
    sleep: dependencies.sleep ?? realSleep,
    bundleIdOf: (pid) => apps.bundleIdOf(pid),
    hasWebContent: async (pid, app) => containsWebArea(await walker.walkApp(pid, app, { maxNodes: 400, maxDepth: 12 })),
  });
  // The pid of the element last resolved for an action: CGEvent's target for input that carries no pid.
  let target: number | undefined;
  const accessibility = new MacAccessibility(client, walker, enabler, (pid) => (target = pid));
  const input = new DarwinInput(dependencies.loadNut ?? createNutInput, new CgEventInput(native, () => target, client.isAlive));
  return {
    name: 'darwin',
    apps,
    accessibility,
    input,
    close: () => {
      walker.dispose();
      cf.release(systemWide);
      cf.dispose();
      return Promise.resolve();
    },
  };
}

/** For the Electron app's permission screen: a real AX call, not only AXIsProcessTrusted. */
export async function checkAccessibilityPermission(native?: MacNative): Promise<AccessibilityStatus> {
  const cf = new CfRuntime(native ?? (await loadNative()));
  try {
    return await checkAccessibility(new AxClient(cf, isProcessAlive));
  } finally {
    cf.dispose();
  }
}

/** Shows the system prompt that leads to System Settings → Privacy & Security → Accessibility. */
export async function requestAccessibilityPermission(native?: MacNative): Promise<boolean> {
  return requestAccessibility(native ?? (await loadNative()));
}

import type { MacNative, Pointer } from '../../../../native/macos';
import { createNutInput } from '../nut-input';
import type { InputBackend, Platform } from '../types';
import { MacAccessibility } from './accessibility';
import { MacApps } from './apps';
import { AxClient, MESSAGING_TIMEOUT_SECONDS } from './ax-client';
import { isProcessAlive } from '../process';
import { CfRuntime } from './cf';
import { CgEventInput } from './cgevent-input';
import { ChromiumEnabler, containsWebArea } from './electron';
import { DarwinInput } from './input';
import { requestAccessibility } from './permissions';
import { MacScreen, type ExecFile } from './screen';
import { checkScreenRecording, requestScreenRecording } from './screen-recording';
import { TreeWalker, type MacRef } from './tree-walk';
import { MacUserInput } from './user-input';
import { MacChildrenReader } from './children-read';
import { darwinTraits } from './traits';
import { checkAccessibilityPermission, defaultOwnPids, loadNative } from './access-check';

export { PERMISSION_HELP, permissionDenied } from './ax-errors';
export { assertAccessibility, checkAccessibility, requestAccessibility, type AccessibilityStatus } from './permissions';

export { MESSAGING_TIMEOUT_SECONDS } from './ax-client';
export { checkAccessibilityPermission, defaultOwnPids };
export { SCREEN_RECORDING_HELP, screenRecordingDenied } from './screen-recording';

export interface DarwinDependencies {
  native?: MacNative;
  loadNut?: () => Promise<InputBackend>;
  sleep?: (ms: number) => Promise<void>;
  isAlive?: (pid: number) => boolean;
  /**
   * Deskpilot's own processes, never listed or taken as the frontmost app: by default this
   * process and the Electron main process, which starts the automation host with --main-pid=
   * (src/host/main.ts). Without main's pid, Deskpilot's own window was listed as an app.
   */
  ownPids?: readonly number[];
  /** A monotonic clock in ms (tests pass a fake one that hung calls move on). */
  now?: () => number;
  /** Runs /usr/sbin/screencapture for window capture (tests pass a fake that writes the PNG). */
  execFile?: ExecFile;
}

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function createDarwinPlatform(dependencies: DarwinDependencies = {}): Promise<Platform> {
  const native = dependencies.native ?? (await loadNative());
  const cf = new CfRuntime(native);
  const now = dependencies.now ?? (() => performance.now());
  const client = new AxClient(cf, dependencies.isAlive ?? isProcessAlive, now);
  const systemWide: Pointer | null = native.AXUIElementCreateSystemWide();
  if (systemWide === null) throw new Error('AXUIElementCreateSystemWide returned NULL');
  // Best effort: a failure leaves the system default, which is slower but still bounded.
  native.AXUIElementSetMessagingTimeout(systemWide, MESSAGING_TIMEOUT_SECONDS);
  const sleep = dependencies.sleep ?? realSleep;
  // The element last resolved for an action: its app and window are what input without a pid goes to.
  let target: MacRef | undefined;
  const apps = new MacApps(client, systemWide, {
    ownPids: dependencies.ownPids ?? defaultOwnPids(),
    sleep,
    windowOf: (pid) => (target?.pid === pid ? target.window : undefined),
  });
  const walker = new TreeWalker(client);
  const enabler = new ChromiumEnabler(client, {
    sleep,
    now,
    bundleIdOf: (pid) => apps.bundleIdOf(pid),
    hasWebContent: async (pid, app) => containsWebArea(await walker.walkApp(pid, app, { maxNodes: 400, maxDepth: 12 })),
  });
  const macAccessibility = new MacAccessibility(client, walker, enabler, (ref) => (target = ref));
  // The compact tree's budgeted, breadth-first read (issue 27): elements are kept between its calls, released on close.
  const children = new MacChildrenReader(client, walker, enabler);
  const accessibility = Object.assign(macAccessibility, { readChildren: children.read });
  const raise = async (): Promise<void> => {
    const pid = target?.pid;
    // Best effort: an app that will not come forward still gets the click where a real mouse would put it.
    if (pid !== undefined && client.isAlive(pid)) await apps.activate(pid).catch(() => false);
  };
  const cg = new CgEventInput(native, sleep);
  const input = new DarwinInput(dependencies.loadNut ?? createNutInput, cg, raise);
  const screen = new MacScreen(cf, { isAlive: client.isAlive, ...(dependencies.execFile === undefined ? {} : { exec: dependencies.execFile }) });
  return {
    ...darwinTraits,
    name: 'darwin',
    apps,
    accessibility,
    input,
    screen,
    userInput: new MacUserInput(client),
    close: async () => {
      await enabler.release();
      children.dispose();
      walker.dispose();
      cf.release(systemWide);
      cf.dispose();
    },
  };
}

/** Shows the system prompt that leads to System Settings → Privacy & Security → Accessibility. */
export async function requestAccessibilityPermission(native?: MacNative): Promise<boolean> {
  return requestAccessibility(native ?? (await loadNative()));
}

/** Whether window capture may run: the Screen Recording grant (CGPreflightScreenCaptureAccess, which never prompts). */
export async function checkScreenRecordingPermission(native?: MacNative): Promise<boolean> {
  return checkScreenRecording(native ?? (await loadNative()));
}

/**
 * Shows the system prompt that leads to System Settings → Privacy & Security → Screen & System
 * Audio Recording, for a permission screen or start-up; capture itself never prompts. A grant
 * takes effect after Deskpilot restarts.
 */
export async function requestScreenRecordingPermission(native?: MacNative): Promise<boolean> {
  return requestScreenRecording(native ?? (await loadNative()));
}

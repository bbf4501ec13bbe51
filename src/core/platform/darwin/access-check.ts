import { loadMacNative, type MacNative } from '../../../../native/macos';
import { UnsupportedOperationError } from '../../../shared/errors';
import { isProcessAlive } from '../process';
import { AxClient } from './ax-client';
import { CfRuntime } from './cf';
import { checkAccessibility, type AccessibilityStatus } from './permissions';

// Apart from index.ts so the doctor's check (traits.ts) loads it without the whole backend, which imports the traits.

/** This process, and the main process named by a --main-pid= argument when there is one. */
export function defaultOwnPids(argv: readonly string[] = process.argv, pid = process.pid): number[] {
  const raw = argv.find((argument) => argument.startsWith('--main-pid='))?.slice('--main-pid='.length);
  const main = Number(raw);
  return raw !== undefined && Number.isInteger(main) && main > 0 && main !== pid ? [pid, main] : [pid];
}

/** A missing framework or koffi binary becomes UI_NOT_AVAILABLE with the reason, not a raw dlopen error. */
export async function loadNative(): Promise<MacNative> {
  try {
    return await loadMacNative();
  } catch (error) {
    throw new UnsupportedOperationError(`the macOS accessibility libraries could not be loaded: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * For the Electron app's permission screen and the doctor: a real AX call, not only
 * AXIsProcessTrusted, on an app that is not one of `ownPids` (by default this process and the
 * main process named by --main-pid=, as the doctor's host is started).
 */
export async function checkAccessibilityPermission(native?: MacNative, ownPids: readonly number[] = defaultOwnPids()): Promise<AccessibilityStatus> {
  const cf = new CfRuntime(native ?? (await loadNative()));
  try {
    return await checkAccessibility(new AxClient(cf, isProcessAlive), ownPids);
  } finally {
    cf.dispose();
  }
}

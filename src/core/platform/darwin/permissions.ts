import type { MacNative } from '../../../../native/macos';
import { PermissionDeniedError } from '../../../shared/errors';
import { MESSAGING_TIMEOUT_SECONDS, type AxClient } from './ax-client';
import { permissionDenied } from './ax-errors';
import { runningApplications } from './workspace';

export interface AccessibilityStatus {
  /** What AXIsProcessTrusted says; it can be true while calls still fail (a re-signed build). */
  trusted: boolean;
  /** Whether a real AX call on another app succeeded, failed for permission, or could not tell. */
  verified: 'granted' | 'denied' | 'unknown';
  granted: boolean;
}

/**
 * Checks the Accessibility grant with a real call: AXIsProcessTrusted alone can report a
 * grant that TCC no longer honours (the toggle shows on, every call fails with APIDisabled).
 * The call reads the focused app from the system-wide element, then that app's AXRole.
 * `ownPids`: Deskpilot's own processes (the host and the Electron main process), never probed:
 * their answer proves nothing, and main is busy answering the doctor's own request.
 */
export async function checkAccessibility(client: AxClient, ownPids: readonly number[] = [process.pid]): Promise<AccessibilityStatus> {
  const { native, cf } = client;
  const trusted = native.AXIsProcessTrusted();
  const systemWide = native.AXUIElementCreateSystemWide();
  if (systemWide === null) return { trusted, verified: 'unknown', granted: trusted };
  // The probe runs in a process of its own (the doctor): without the cap, a hung app in front
  // holds it for the system default of about 6 s per call instead of MESSAGING_TIMEOUT_SECONDS.
  native.AXUIElementSetMessagingTimeout(systemWide, MESSAGING_TIMEOUT_SECONDS);
  try {
    const verified = await cf.owned(systemWide, async (systemWide) => {
      const app = await client.copy(systemWide, 'AXFocusedApplication', 0);
      const focused = app === undefined ? undefined : await cf.owned(app, (app) => client.pidOf(app));
      // Deskpilot itself in front proves nothing (and querying our own pid can deadlock): probe another app.
      const pid = focused !== undefined && !ownPids.includes(focused) ? focused : probeTarget(client, ownPids);
      if (pid === undefined) return 'unknown' as const;
      const role = await cf.owned(client.application(pid), (element) => client.copy(element, 'AXRole', pid));
      cf.release(role);
      return role === undefined ? ('unknown' as const) : ('granted' as const);
    });
    return { trusted, verified, granted: verified === 'granted' || trusted };
  } catch (error) {
    if (error instanceof PermissionDeniedError) return { trusted, verified: 'denied', granted: false };
    return { trusted, verified: 'unknown', granted: trusted };
  }
}

/** A running regular app other than ours to ask for its AXRole: Finder, which is nearly always there, else any. */
function probeTarget(client: AxClient, ownPids: readonly number[]): number | undefined {
  const others = runningApplications(client.cf, client.isAlive).filter((app) => !ownPids.includes(app.pid));
  return (others.find((app) => app.bundleId === 'com.apple.finder') ?? others[0])?.pid;
}

/**
 * Shows the system prompt that sends the user to System Settings, through
 * AXIsProcessTrustedWithOptions({kAXTrustedCheckOptionPrompt: true}). The prompt is
 * asynchronous and the answer is the current state, so callers poll checkAccessibility.
 */
export function requestAccessibility(native: MacNative): boolean {
  const options = native.CFDictionaryCreate(
    null,
    [native.kAXTrustedCheckOptionPrompt],
    [native.kCFBooleanTrue],
    1,
    native.kCFTypeDictionaryKeyCallBacks,
    native.kCFTypeDictionaryValueCallBacks,
  );
  if (options === null) return native.AXIsProcessTrusted();
  try {
    return native.AXIsProcessTrustedWithOptions(options);
  } finally {
    native.CFRelease(options);
  }
}

/** Throws PERMISSION_DENIED, saying where to grant access, unless the grant works. */
export async function assertAccessibility(client: AxClient): Promise<void> {
  const status = await checkAccessibility(client);
  if (!status.granted) throw permissionDenied();
}

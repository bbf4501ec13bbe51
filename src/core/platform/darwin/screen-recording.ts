import type { MacNative } from '../../../../native/macos';
import { PermissionDeniedError } from '../../../shared/errors';

export const SCREEN_RECORDING_HELP =
  'Deskpilot needs Screen Recording access to capture windows. Open System Settings → Privacy & Security → Screen & System Audio Recording ' +
  '(Screen Recording before macOS 15) and turn it on for Deskpilot (or for the terminal it was started from), then quit and restart Deskpilot: ' +
  'macOS applies the grant only to processes started after it. If it is already on, turn it off and on again: a rebuilt app loses the grant.';

export function screenRecordingDenied(cause?: unknown): PermissionDeniedError {
  return new PermissionDeniedError(SCREEN_RECORDING_HELP, { data: { permission: 'screen-recording' }, ...(cause === undefined ? {} : { cause }) });
}

/**
 * Whether this process may capture other apps' windows: CGPreflightScreenCaptureAccess
 * (CGWindow.h, macOS 10.15+), which never prompts. Without the grant, macOS does not always
 * fail a capture: recent versions hand back the desktop picture without the windows, so this
 * is asked before every capture rather than guessed from the pixels.
 */
export function checkScreenRecording(native: MacNative): boolean {
  return native.CGPreflightScreenCaptureAccess();
}

/**
 * Shows the system prompt that leads to the Screen Recording settings
 * (CGRequestScreenCaptureAccess) and returns the current state. For a permission screen or
 * start-up, once: capture never calls it, so a missing grant never prompts on every screenshot.
 */
export function requestScreenRecording(native: MacNative): boolean {
  return native.CGRequestScreenCaptureAccess();
}

/** Throws PERMISSION_DENIED, saying where to grant Screen Recording, unless it is granted. */
export function assertScreenRecording(native: MacNative): void {
  if (!checkScreenRecording(native)) throw screenRecordingDenied();
}

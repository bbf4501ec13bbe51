import type { MacNative } from '../../../../native/macos';
import type { DoctorCheck } from '../../../shared/ipc';

/**
 * The doctor's Input Monitoring line: CGPreflightListenEventAccess (macOS 10.15+), which never
 * prompts. Only `workflow record` needs the grant, so its absence is reported with the fix but
 * does not fail the doctor.
 */
export function inputMonitoringCheck(native: MacNative): DoctorCheck {
  if (native.CGPreflightListenEventAccess()) return { id: 'mac-input-monitoring', status: 'ok', figure: 'granted' };
  return {
    id: 'mac-input-monitoring',
    status: 'skip',
    figure: 'not granted (only workflow record needs it)',
    fix: 'System Settings → Privacy & Security → Input Monitoring: turn on the app that runs Deskpilot (Terminal for the CLI), then run it again',
  };
}

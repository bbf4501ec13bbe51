import path from 'node:path';
import type { DoctorCheck } from '../../../shared/ipc';
import type { PlatformTraits } from '../types';

const ACCESS_MS = 4000;
const NOT_YET = 'not checked: this build cannot ask macOS about it yet';

async function accessibilityCheck(): Promise<DoctorCheck[]> {
  // Loaded only when the doctor runs: the check goes through koffi.
  const { checkAccessibilityPermission } = await import('./access-check');
  const status = await checkAccessibilityPermission();
  return [
    status.granted
      ? { id: 'mac-accessibility', status: 'ok', figure: `granted (${status.verified})` }
      : {
          id: 'mac-accessibility',
          status: 'fail',
          figure: 'not granted',
          fix: 'System Settings → Privacy & Security → Accessibility: turn on the app that runs Deskpilot (Terminal for the CLI)',
          fixKey: 'mac-accessibility',
        },
  ];
}

async function inputMonitoring(): Promise<DoctorCheck> {
  try {
    const [{ loadNative }, { inputMonitoringCheck }] = await Promise.all([import('./access-check'), import('./input-monitoring')]);
    return inputMonitoringCheck(await loadNative());
  } catch {
    // The libraries did not load: the Accessibility line says why; this one cannot be asked.
    return { id: 'mac-input-monitoring', status: 'skip', figure: 'not checked: the macOS libraries did not load' };
  }
}

/** macOS: ⌘ shortcuts, help in the app bundle's Help Book, the accessibility and Input Monitoring checks, app data in Application Support. */
export const darwinTraits: PlatformTraits = {
  primaryModifier: 'meta',
  appIdentity: ({ name }) => ({ name, helpFormat: 'help-book' }),
  namedIdentity: (name) => ({ name, helpFormat: 'help-book' }),
  diagnose: () => [
    { ids: ['mac-accessibility'], deadlineMs: ACCESS_MS, run: accessibilityCheck },
    {
      ids: ['mac-input-monitoring', 'mac-screen-recording'],
      deadlineMs: ACCESS_MS,
      run: async () => [await inputMonitoring(), { id: 'mac-screen-recording', status: 'skip', figure: NOT_YET }],
    },
  ],
  appDataDir: (_env, home) => path.join(home, 'Library', 'Application Support', 'Deskpilot'),
};

import { readlinkSync } from 'node:fs';
import type { DoctorCheck } from '../../../shared/ipc';
import { freedesktopDataDir } from '../app-data';
import type { PlatformTraits } from '../types';
import { desktopEntries, installedApp } from './desktop-entries';

/** The doctor's Linux checks, answered together (they share the session bus and the registry). */
const CHECK_IDS: DoctorCheck['id'][] = ['display', 'a11y-bus', 'a11y-enabled', 'registry', 'apps', 'chromium', 'window-manager', 'input', 'keyring'];
/** Each check's steps have their own deadlines; this bounds the whole part. */
const CHECKS_MS = 8000;

/** Linux: ctrl shortcuts, help filed under an app's program and desktop id, the doctor's desktop checks, freedesktop app data. */
export const linuxTraits: PlatformTraits = {
  primaryModifier: 'ctrl',
  appIdentity: (app) => {
    try {
      return { name: app.name, executable: readlinkSync(`/proc/${app.pid}/exe`) };
    } catch {
      return { name: app.name };
    }
  },
  namedIdentity: (name, env) => {
    const found = installedApp(name, desktopEntries(env));
    return found === undefined ? { name } : { name, executable: found.program, desktopId: found.desktopId };
  },
  diagnose: (env, ownPids) => [
    {
      ids: CHECK_IDS,
      deadlineMs: CHECKS_MS,
      // Loaded only when the doctor runs: the checks bring D-Bus and X11.
      run: async () => (await import('./desktop-checks')).linuxChecks(env, ownPids),
    },
  ],
  appDataDir: freedesktopDataDir,
};

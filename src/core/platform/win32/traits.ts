import path from 'node:path';
import { envValue } from '../app-data';
import type { PlatformTraits } from '../types';

/**
 * Windows: ctrl shortcuts, help by name, no desktop checks yet (UI automation is not built), and
 * app data under %APPDATA%.
 */
export const win32Traits: PlatformTraits = {
  primaryModifier: 'ctrl',
  appIdentity: ({ name }) => ({ name }),
  namedIdentity: (name) => ({ name }),
  diagnose: () => [],
  appDataDir: (env, home) => path.join(envValue(env, 'APPDATA') ?? path.join(home, 'AppData', 'Roaming'), 'Deskpilot'),
};

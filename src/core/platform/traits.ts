import { freedesktopDataDir } from './app-data';
import { darwinTraits } from './darwin/traits';
import { linuxTraits } from './linux/traits';
import type { PlatformTraits } from './types';
import { win32Traits } from './win32/traits';

/** An OS with no help lookup, no desktop checks, ctrl shortcuts and freedesktop app data: the fake desktop, the unavailable platform, the BSDs. */
export const genericTraits: PlatformTraits = {
  primaryModifier: 'ctrl',
  appIdentity: ({ name }) => ({ name }),
  namedIdentity: (name) => ({ name }),
  diagnose: () => [],
  appDataDir: freedesktopDataDir,
};

/**
 * The traits of an OS by name (process.platform, or a Platform's name), for code that has no
 * Platform at hand: the doctor on a broken desktop, documentation search for a named app, risk
 * checks given only the platform's name. The one OS switch outside the backends' factory.
 */
export function platformTraits(os: string): PlatformTraits {
  if (os === 'linux') return linuxTraits;
  if (os === 'darwin') return darwinTraits;
  if (os === 'win32') return win32Traits;
  return genericTraits;
}

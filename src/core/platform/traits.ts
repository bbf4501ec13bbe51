import { darwinTraits } from './darwin/traits';
import { linuxTraits } from './linux/traits';
import type { PlatformTraits } from './types';

/** An OS with no help lookup, no desktop checks and ctrl shortcuts: Windows' stub, the fake desktop, the unavailable platform. */
export const genericTraits: PlatformTraits = {
  primaryModifier: 'ctrl',
  appIdentity: ({ name }) => ({ name }),
  namedIdentity: (name) => ({ name }),
  diagnose: () => [],
};

/**
 * The traits of an OS by name (process.platform, or a Platform's name), for code that has no
 * Platform at hand: the doctor on a broken desktop, documentation search for a named app, risk
 * checks given only the platform's name. The one OS switch outside the backends' factory.
 */
export function platformTraits(os: string): PlatformTraits {
  if (os === 'linux') return linuxTraits;
  if (os === 'darwin') return darwinTraits;
  return genericTraits;
}

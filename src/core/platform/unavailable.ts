import { UnsupportedOperationError } from '../../shared/errors';
import { genericTraits } from './traits';
import type { Platform, PlatformName } from './types';

export const SUPPORTED_SUMMARY =
  'Deskpilot reads and drives apps on macOS (Accessibility) and Linux (AT-SPI2 under X11); chat without UI automation works everywhere';

/**
 * A platform whose every call raises UI_NOT_AVAILABLE with `message`. The app still starts
 * and can chat; only the automation tools fail, clearly, when used.
 */
export function unavailablePlatform(message: string, name: PlatformName = 'unavailable'): Platform {
  const fail = (): Promise<never> => Promise.reject(new UnsupportedOperationError(message));
  return {
    ...genericTraits,
    name,
    apps: { list: fail, frontmost: fail, isAlive: fail },
    accessibility: { getTree: fail, press: fail, setValue: fail, focus: fail },
    input: { click: fail, moveMouse: fail, mouseDown: fail, mouseUp: fail, typeText: fail, pressKey: fail, scroll: fail },
    close: () => Promise.resolve(),
  };
}

import { SUPPORTED_SUMMARY, unavailablePlatform } from './unavailable';
import type { Platform } from './types';

/**
 * Picks the platform for this OS. DESKPILOT_PLATFORM=fake selects the in-memory platform,
 * so the CLI and tests can run anywhere. Backends load lazily: the fake never pulls in
 * FFI or D-Bus, and a missing backend cannot break start-up. Screen text (OCR) is composed on
 * top by the programs, through core/runtime: the platform sits below vision.
 */
export async function createPlatform(
  platform: string = process.platform,
  env: Record<string, string | undefined> = process.env,
  options: { hidePids?: () => readonly number[] } = {},
): Promise<Platform> {
  const chosen = env['DESKPILOT_PLATFORM'] ?? platform;
  switch (chosen) {
    case 'fake': {
      const { FakePlatform } = await import('./fake/fake-platform');
      return new FakePlatform();
    }
    case 'win32': {
      const { createWin32Platform } = await import('./win32');
      return createWin32Platform();
    }
    case 'linux': {
      const { createLinuxPlatform } = await import('./linux');
      return createLinuxPlatform(env);
    }
    case 'darwin': {
      const { createDarwinPlatform } = await import('./darwin');
      // Deskpilot's own pids (this process and Electron main) are never listed or frontmost; without them, --main-pid= is read from the arguments.
      return createDarwinPlatform(options.hidePids === undefined ? {} : { ownPids: [...new Set([process.pid, ...options.hidePids()])] });
    }
    default:
      return unavailablePlatform(`UI automation is not available on '${chosen}'. ${SUPPORTED_SUMMARY}.`);
  }
}

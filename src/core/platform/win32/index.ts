import { SUPPORTED_SUMMARY, unavailablePlatform } from '../unavailable';
import type { Platform } from '../types';

/** Windows UI Automation is not built; say so instead of failing obscurely. */
export function createWin32Platform(): Platform {
  return unavailablePlatform(`UI automation is not available on Windows yet. ${SUPPORTED_SUMMARY}.`, 'win32');
}

import { SUPPORTED_SUMMARY, unavailablePlatform } from '../unavailable';
import type { Platform } from '../types';
import { win32Traits } from './traits';

/** Windows UI Automation is not built; say so instead of failing obscurely. */
export function createWin32Platform(): Platform {
  return { ...unavailablePlatform(`UI automation is not available on Windows yet. ${SUPPORTED_SUMMARY}.`, 'win32'), ...win32Traits };
}

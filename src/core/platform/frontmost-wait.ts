import type { AppListing } from './types';

/**
 * How long a raised window may take to report itself active: window managers answer
 * asynchronously, and on a loaded machine (CI beside other jobs) openbox took over 500 ms.
 * Only a failed activation waits this long.
 */
export const ACTIVATE_WAIT_MS = 1500;
const POLL_MS = 50;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `frontmost()` until `pid` is in front or `timeoutMs` ran out. An abort ends the wait
 * early with false; the caller checks the signal itself and acts on nothing after it.
 */
export async function waitFrontmost(
  frontmost: AppListing['frontmost'],
  pid: number,
  signal?: AbortSignal,
  timeoutMs = ACTIVATE_WAIT_MS,
  sleep: (ms: number) => Promise<void> = pause,
): Promise<boolean> {
  for (let waited = 0; ; waited += POLL_MS) {
    if (signal?.aborted) return false;
    if ((await frontmost().catch(() => undefined))?.pid === pid) return true;
    if (waited >= timeoutMs) return false;
    await sleep(POLL_MS);
  }
}

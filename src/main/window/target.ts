import type { TargetApp } from '../../shared/ipc';

/** Long enough for a healthy accessibility call, short enough that the hotkey still feels instant. */
export const FRONTMOST_TIMEOUT_MS = 300;

/**
 * The app asks will act on: whatever was in front when the user summoned Deskpilot. It must be
 * read before the window shows (after, the frontmost app is Deskpilot). When the read fails,
 * is slow, or finds Deskpilot itself (a second press while already shown), the previous
 * target stays.
 */
export async function captureTarget(
  frontmost: () => Promise<TargetApp | null>,
  ownPids: readonly number[],
  previous: TargetApp | null,
  timeoutMs = FRONTMOST_TIMEOUT_MS,
): Promise<TargetApp | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const found = await Promise.race([frontmost().catch(() => null), timeout]);
    return found === null || ownPids.includes(found.pid) ? previous : found;
  } finally {
    clearTimeout(timer);
  }
}

import { DeskpilotError } from '../../shared/errors';
import type { AppListing, Point } from '../platform/types';

/**
 * Synthetic input landed where a window of another process lies over the app's element. The
 * message never names that app: a program limited to some apps must not learn what else runs.
 */
export class CoveredPointError extends DeskpilotError {
  constructor(pid: number, point: Point) {
    super(
      'ACTION_FAILED',
      `input not sent: at ${Math.round(point.x)},${Math.round(point.y)} the element of pid ${pid} is covered by another window, so a click there would land in that window instead. ` +
        'Bring the app to the front (ui_focus_app) or act without the pointer (set_value, a key), then try again.',
      { data: { pid, point }, isRetryable: true },
    );
    this.name = 'CoveredPointError';
  }
}

/**
 * Throws unless the window on top at `point` is the app's own (by pid, or by title for a window
 * without one). A platform that cannot say whose window is where is not checked.
 */
export async function checkPointOwner(apps: AppListing, pid: number, point: Point): Promise<void> {
  if (apps.windowAt === undefined) return;
  const owner = await apps.windowAt(point);
  if (owner?.pid === pid) return;
  if (owner !== undefined && owner.pid === undefined && owner.title !== undefined) {
    const app = (await apps.list()).find((each) => each.pid === pid);
    if (app?.windows.some((window) => window.title === owner.title) === true) return;
  }
  throw new CoveredPointError(pid, point);
}

import type { Point, WindowOwner } from '../../types';
import { screenRect } from './capture';
import { X11Connection } from './connection';
import { X11Session } from './session';

/**
 * The process whose window is on top at a screen point: the top-level windows from the top of
 * the stacking order down, the first shown one whose rectangle holds the point. `title` is
 * given for windows without _NET_WM_PID. Undefined when no window is there (the bare root).
 * Core X11 only, like capture: it works under Xvfb and any X server.
 */
export async function windowOwnerAt(env: Record<string, string | undefined>, point: Point, timeoutMs = 2000): Promise<WindowOwner | undefined> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const { windows, managed } = await session.topLevel();
    for (const window of [...windows].reverse()) {
      // The window manager's list holds minimized windows too; the root's shown children are shown already.
      if (managed && !(await session.viewable(window))) continue;
      const rect = await screenRect(session, window);
      if (point.x < rect.x || point.y < rect.y || point.x >= rect.x + rect.width || point.y >= rect.y + rect.height) continue;
      const pid = await session.pidOf(window);
      if (pid !== undefined) return { pid };
      const title = await session.titleOf(window);
      return title === undefined ? {} : { title };
    }
    return undefined;
  } finally {
    x.close();
  }
}

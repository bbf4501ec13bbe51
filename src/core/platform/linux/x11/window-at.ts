import type { Point, WindowOwner } from '../../types';
import { screenRect } from './capture';
import { X11Connection } from './connection';
import { X11Session } from './session';
import { screenStack } from './stack';

/**
 * The process whose window is on top at a screen point: the root's shown windows from the top of
 * the stacking order down (screenStack), the first whose rectangle holds the point. `title` is
 * given for windows without _NET_WM_PID. Undefined when no window is there (the bare root).
 * Core X11 only, like capture: it works under Xvfb and any X server.
 */
export async function windowOwnerAt(env: Record<string, string | undefined>, point: Point, timeoutMs = 2000): Promise<WindowOwner | undefined> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const { windows, managed } = await session.topLevel();
    // The screen's real stacking order, unmanaged popups included; frames stand for their clients.
    const stack = await screenStack(session, managed ? windows : undefined);
    // A root that lists no children (some nested servers) leaves the window manager's list, minimized windows skipped.
    const fallback = async (): Promise<{ top: number; client: number }[]> => {
      const shown: { top: number; client: number }[] = [];
      for (const window of windows) if (await session.viewable(window)) shown.push({ top: window, client: window });
      return shown;
    };
    for (const { top, client } of (stack.length > 0 ? stack : await fallback()).reverse()) {
      const rect = await screenRect(session, top);
      if (point.x < rect.x || point.y < rect.y || point.x >= rect.x + rect.width || point.y >= rect.y + rect.height) continue;
      const pid = await session.pidOf(client);
      if (pid !== undefined) return { pid };
      const title = await session.titleOf(client);
      return title === undefined ? {} : { title };
    }
    return undefined;
  } finally {
    x.close();
  }
}

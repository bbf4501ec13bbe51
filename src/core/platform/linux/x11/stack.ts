import type { X11Session } from './session';

/** One shown window straight under the root, in stacking order, and the client window it shows. */
export interface Stacked {
  /** The root's child: a window manager's frame, an unmanaged popup, or a client without a window manager. */
  top: number;
  /** The client inside a frame (the window with the app's properties); `top` itself otherwise. */
  client: number;
}

/** How deep a frame may hold its client: most window managers put it one or two levels down. */
const FRAME_DEPTH = 2;

async function clientIn(session: X11Session, window: number, managed: ReadonlySet<number>, depth: number): Promise<number | undefined> {
  if (managed.has(window)) return window;
  if (depth === 0) return undefined;
  for (const child of await session.children(window).catch(() => [])) {
    const found = await clientIn(session, child, managed, depth - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * What the screen shows, bottom to top: the root's shown children, each with its client. This is
 * the real stacking order, which the window manager's list is not: it leaves out unmanaged
 * windows (override-redirect popups, menus, notifications), and those can lie over an app too.
 * A window that frames no managed client stands for itself.
 */
export async function screenStack(session: X11Session, managed: readonly number[] | undefined): Promise<Stacked[]> {
  const clients = new Set(managed ?? []);
  const stack: Stacked[] = [];
  for (const top of await session.children(session.x.root)) {
    if (!(await session.viewable(top))) continue;
    stack.push({ top, client: clients.size === 0 ? top : ((await clientIn(session, top, clients, FRAME_DEPTH)) ?? top) });
  }
  return stack;
}

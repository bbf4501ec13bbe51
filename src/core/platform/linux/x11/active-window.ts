import { X11Connection } from './connection';
import { OPCODE, SOURCE_PAGER, words, X11Session } from './session';

const GET_INPUT_FOCUS = 43;
const REVERT_TO_PARENT = 2;
/** X11's None and PointerRoot: no window to give back. */
const NO_WINDOW = new Set([0, 1]);

/**
 * The active top-level window: the window manager's `_NET_ACTIVE_WINDOW`, else (no window
 * manager) the window with the input focus. Read before synthetic input, to give it back after.
 */
export async function activeWindow(env: Record<string, string | undefined>, timeoutMs = 500): Promise<number | undefined> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const managed = (await session.windows(x.root, '_NET_ACTIVE_WINDOW'))?.[0];
    if (managed !== undefined) return NO_WINDOW.has(managed) ? undefined : managed;
    const reply = await x.request(GET_INPUT_FOCUS, 0, Buffer.alloc(0), 'GetInputFocus');
    const focus = reply.readUInt32LE(8);
    return NO_WINDOW.has(focus) ? undefined : focus;
  } finally {
    x.close();
  }
}

/**
 * Makes a window active again, the way a taskbar does (`_NET_ACTIVE_WINDOW`, source "pager"),
 * or with the input focus when no window manager runs. A window that has gone is left alone.
 */
export async function restoreWindow(env: Record<string, string | undefined>, window: number, timeoutMs = 500): Promise<void> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const { windows, managed } = await session.topLevel();
    if (managed) {
      if (!windows.includes(window)) return;
      await session.askWindowManager(window, '_NET_ACTIVE_WINDOW', SOURCE_PAGER);
      return;
    }
    if (!(await session.viewable(window))) return;
    await x.sendChecked(OPCODE.setInputFocus, REVERT_TO_PARENT, words(window, 0), 'SetInputFocus');
  } finally {
    x.close();
  }
}

/** The pid a top-level window carries (_NET_WM_PID); undefined for a window that carries none or has gone. */
export async function windowPid(env: Record<string, string | undefined>, window: number, timeoutMs = 500): Promise<number | undefined> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    return await new X11Session(x).pidOf(window).catch(() => undefined);
  } finally {
    x.close();
  }
}

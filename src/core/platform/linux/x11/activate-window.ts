import { X11Connection } from './connection';
import { OPCODE, pick, words, X11Session, type WindowMatch } from './session';

/**
 * Asks the window manager to activate an app's top-level window, the way a taskbar does:
 * an EWMH `_NET_ACTIVE_WINDOW` client message with source 2 ("pager"), which window
 * managers honour without their focus-stealing prevention. The window is found by its
 * `_NET_WM_PID`, else by title. With no EWMH window manager running, the window is raised
 * and given the input focus directly.
 */

const SUBSTRUCTURE_NOTIFY = 1 << 19;
const SUBSTRUCTURE_REDIRECT = 1 << 20;
const CLIENT_MESSAGE = 33;
const SOURCE_PAGER = 2;
const REVERT_TO_PARENT = 2;
const STACK_MODE = 0x40;

export type ActivateOutcome = 'requested' | 'focused' | 'no-window';
export type { WindowMatch };

export async function activateWindow(env: Record<string, string | undefined>, match: WindowMatch, timeoutMs = 1000): Promise<ActivateOutcome> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const { windows, managed } = await session.topLevel();
    const window = await pick(session, windows, match);
    if (window === undefined) return 'no-window';
    if (managed) {
      const event = Buffer.concat([Buffer.from([CLIENT_MESSAGE, 32, 0, 0]), words(window, await session.atom('_NET_ACTIVE_WINDOW'), SOURCE_PAGER, 0, 0, 0, 0)]);
      await x.sendChecked(
        OPCODE.sendEvent,
        0,
        Buffer.concat([words(x.root, SUBSTRUCTURE_REDIRECT | SUBSTRUCTURE_NOTIFY), event]),
        'SendEvent(_NET_ACTIVE_WINDOW)',
      );
      return 'requested';
    }
    // No window manager: nobody stops us raising and focusing the window ourselves.
    await x.sendChecked(OPCODE.configureWindow, 0, Buffer.concat([words(window), Buffer.from([STACK_MODE, 0, 0, 0]), words(0)]), 'ConfigureWindow(raise)');
    await x.sendChecked(OPCODE.setInputFocus, REVERT_TO_PARENT, words(window, 0), 'SetInputFocus');
    return 'focused';
  } finally {
    x.close();
  }
}

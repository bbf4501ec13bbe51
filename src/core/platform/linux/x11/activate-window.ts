import { OPCODE, SOURCE_PAGER, withAppWindow, words, type WindowMatch } from './session';

/**
 * Asks the window manager to activate an app's top-level window, the way a taskbar does:
 * an EWMH `_NET_ACTIVE_WINDOW` client message with source 2 ("pager"), which window
 * managers honour without their focus-stealing prevention. The window is found by its
 * `_NET_WM_PID`, else by title. With no EWMH window manager running, the window is raised
 * and given the input focus directly.
 */

const REVERT_TO_PARENT = 2;
const STACK_MODE = 0x40;

export type ActivateOutcome = 'requested' | 'focused' | 'no-window';
export type { WindowMatch };

export function activateWindow(env: Record<string, string | undefined>, match: WindowMatch, timeoutMs = 1000): Promise<ActivateOutcome> {
  return withAppWindow(env, match, timeoutMs, async (session, window, managed): Promise<ActivateOutcome> => {
    if (managed) {
      await session.askWindowManager(window, '_NET_ACTIVE_WINDOW', SOURCE_PAGER);
      return 'requested';
    }
    // No window manager: nobody stops us raising and focusing the window ourselves.
    const x = session.x;
    await x.sendChecked(OPCODE.configureWindow, 0, Buffer.concat([words(window), Buffer.from([STACK_MODE, 0, 0, 0]), words(0)]), 'ConfigureWindow(raise)');
    await x.sendChecked(OPCODE.setInputFocus, REVERT_TO_PARENT, words(window, 0), 'SetInputFocus');
    return 'focused';
  });
}

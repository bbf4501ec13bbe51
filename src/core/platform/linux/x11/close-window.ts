import { clientMessage, OPCODE, SOURCE_PAGER, withAppWindow, words, type WindowMatch } from './session';

/**
 * Closes an app's top-level window the way its title bar's close button does, which works for
 * apps that ignore ctrl+w (galculator, dialogs, most non-document apps):
 * - with an EWMH window manager, a `_NET_CLOSE_WINDOW` client message to the root window
 *   (source 2, "pager"), so the manager runs its own close (it asks the app to close);
 * - without one, `WM_DELETE_WINDOW` sent to the window itself, when the app takes it (ICCCM
 *   WM_PROTOCOLS); an app that does not is never killed here.
 */

const CURRENT_TIME = 0;

export type CloseOutcome = 'window-manager' | 'delete-window' | 'no-window' | 'not-supported';

export function closeWindow(env: Record<string, string | undefined>, match: WindowMatch, timeoutMs = 1000): Promise<CloseOutcome> {
  return withAppWindow(env, match, timeoutMs, async (session, window, managed): Promise<CloseOutcome> => {
    if (managed) {
      await session.askWindowManager(window, '_NET_CLOSE_WINDOW', CURRENT_TIME, SOURCE_PAGER);
      return 'window-manager';
    }
    const protocols = await session.atom('WM_PROTOCOLS');
    const remove = await session.atom('WM_DELETE_WINDOW');
    const taken = (await session.windows(window, 'WM_PROTOCOLS')) ?? [];
    if (protocols === 0 || remove === 0 || !taken.includes(remove)) return 'not-supported';
    // Event mask 0: the event goes to the client that made the window, which is the app.
    await session.x.sendChecked(
      OPCODE.sendEvent,
      0,
      Buffer.concat([words(window, 0), clientMessage(window, protocols, remove, CURRENT_TIME)]),
      'SendEvent(WM_DELETE_WINDOW)',
    );
    return 'delete-window';
  });
}

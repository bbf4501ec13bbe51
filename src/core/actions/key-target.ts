import { DeskpilotError } from '../../shared/errors';
import type { AppListing } from '../platform/types';

/**
 * Keys were not sent because their app could not be brought to the front. The message says
 * what was tried, never which app is in front instead: an MCP client limited to some apps
 * must not learn what else the user is running.
 */
export class KeyTargetError extends DeskpilotError {
  constructor(pid: number, action: 'key' | 'type', tried: string) {
    super(
      'ACTION_FAILED',
      `${action} not sent: pid ${pid} is not the frontmost app and ${tried}. Synthetic keys go to whichever app has the keyboard focus, so they would land in another app. ` +
        'Ask the user to switch to the app and try again, or act without keys (set_value for text, click for buttons).',
      { data: { pid } },
    );
    this.name = 'KeyTargetError';
  }
}

/**
 * Synthetic keys go to whatever window has the keyboard focus: XTest on Linux ignores the
 * pid, and on macOS nut-js, tried before the CGEvent driver that can post to a pid, ignores
 * it too. Focusing an element through accessibility does not help either: GTK grabs focus
 * inside its window without activating the window. So keys are sent only while their app is
 * frontmost, raising it first when the platform can; otherwise `ctrl+q` meant for one app
 * could quit another (a terminal, Deskpilot's own chat window), past the MCP allow-list of
 * apps and the agent's own-window rule. One frontmost() call when the app is already in front.
 */
export async function ensureFrontmost(apps: AppListing, pid: number, action: 'key' | 'type', signal?: AbortSignal): Promise<void> {
  if ((await apps.frontmost())?.pid === pid) return;
  signal?.throwIfAborted();
  if (apps.activate === undefined) throw new KeyTargetError(pid, action, 'this platform cannot raise its window');
  const raised = await apps.activate(pid, signal);
  signal?.throwIfAborted();
  if (!raised)
    throw new KeyTargetError(pid, action, 'raising its window did not bring it to the front (the window manager refused, or the window could not be found)');
}

import { DeskpilotError } from '../../../shared/errors';
import type { AppListing } from '../platform/types';

/** A key with no element was not sent because its app does not have the keyboard focus. */
export class KeyTargetError extends DeskpilotError {
  constructor(pid: number) {
    super(
      'ACTION_FAILED',
      `key not sent: pid ${pid} is not the frontmost app, and a key with no id goes to whichever app has the keyboard focus. ` +
        'Pass the id of an element in the app (it is focused first), or bring the app to the front first (focus_app, or ask the user to switch to it).',
      { data: { pid } },
    );
    this.name = 'KeyTargetError';
  }
}

/**
 * Synthetic keys go to whatever window has the keyboard focus: XTest on Linux ignores the
 * pid, and on macOS nut-js, tried before the CGEvent driver that can post to a pid, ignores
 * it too. So a key with no element to focus is sent only while its app is frontmost;
 * otherwise `ctrl+q` meant for one app could quit another (a terminal, Deskpilot's own
 * window), past the MCP allow-list of apps and the agent's own-window rule.
 */
export async function assertFrontmost(apps: AppListing, pid: number): Promise<void> {
  if ((await apps.frontmost())?.pid !== pid) throw new KeyTargetError(pid);
}

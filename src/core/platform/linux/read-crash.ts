import { readFileSync } from 'node:fs';
import { DbusCallError } from '../../../../native/linux/dbus';
import { DeskpilotError, oneLine } from '../../../shared/errors';
import { isProcessAlive } from '../process';
import { describeBridge, type Bridge } from './bridges';

/** Errors that mean the app's end of the bus is gone, not one node of it. */
const APP_GONE_ERRORS = new Set([
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.Disconnected',
]);

export function isAppGone(error: unknown): error is DbusCallError {
  return error instanceof DbusCallError && APP_GONE_ERRORS.has(error.errorName);
}

/** Dead or a zombie (its parent has not reaped it yet): either way it answers nothing again. */
function isDead(pid: number): boolean {
  if (!isProcessAlive(pid)) return true;
  try {
    // /proc/PID/stat: "pid (comm) S …"; comm may hold spaces and parentheses, the state follows the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/** A crashing app drops off the bus a moment before the kernel reports it gone (a core dump takes time). */
const EXIT_WAIT_MS = 1500;
const EXIT_POLL_MS = 50;

export interface CrashContext {
  pid: number;
  name: string;
  bridge: Bridge;
}

/**
 * When a read failed because the app left the bus, and the app is dead, the error says so:
 * PROCESS_EXITED with `data.duringRead`, the toolkit and the call that was in flight, so a
 * crash Deskpilot may have caused is never reported as "no window" or as a stub tree.
 * Undefined when the app is still running (its bus name went away for another reason).
 */
export async function crashDuringRead(error: unknown, app: CrashContext, sleep = defaultSleep): Promise<DeskpilotError | undefined> {
  if (!isAppGone(error)) return undefined;
  for (let waited = 0; !isDead(app.pid); waited += EXIT_POLL_MS) {
    if (waited >= EXIT_WAIT_MS) return undefined;
    await sleep(EXIT_POLL_MS);
  }
  const call = `${error.call.interface}.${error.call.member}${error.call.body?.length === 1 ? `("${String(error.call.body[0])}")` : ''}`;
  const toolkit = oneLine(describeBridge(app.bridge)).slice(0, 60);
  // An app's name comes from the app: one line, bounded.
  const name = oneLine(app.name).slice(0, 80) || 'the app';
  return new DeskpilotError(
    'PROCESS_EXITED',
    `${name} (pid ${app.pid}, ${toolkit}) exited while its tree was read; the call in flight was ${call}. The app crashed, and unsaved work in it may be lost. Start it again; if it happens again, report it with the toolkit and the call named here`,
    { cause: error, data: { pid: app.pid, duringRead: true, crashed: true, toolkit, call, app: name } },
  );
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

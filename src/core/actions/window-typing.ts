import type { UiNode } from '../../shared/ui-node';
import type { Clock } from '../clock';
import type { Platform } from '../platform/types';
import type { Route } from './accessible-route';

/** How often, and how long, the text is read back after keys were sent to the window. */
const ARRIVAL_CHECKS = 12;
const ARRIVAL_CHECK_MS = 25;
/** Looks for a window activation that grabbing the focus caused, and the wait between them. */
const ACTIVATION_LOOKS = 2;
const ACTIVATION_WAIT_MS = 100;
/** Enough of a field's text to see it grow; longer texts are cut the same way before and after. */
const READ_CHARS = 100_000;

/**
 * Typing for toolkits whose EditableText does nothing (Gecko answers InsertText with true and
 * inserts nothing): focus the element through accessibility, which leaves its window where it
 * is in the stack, then send the keys to that window alone (InputBackend.typeInWindow), so the
 * user's keyboard and focus are untouched. The text is read back: an app that ignores sent
 * events gets undefined here, and the caller types with the keyboard instead.
 */
export async function typeInWindow(
  platform: Platform,
  clock: Clock,
  pid: number,
  ref: unknown,
  node: UiNode,
  text: string,
  signal?: AbortSignal,
): Promise<Route | undefined> {
  const { accessibility, input } = platform;
  const readText = accessibility.readText?.bind(accessibility);
  // A secret field's text is never read back, so its arrival could not be checked.
  if (input.typeInWindow === undefined || readText === undefined || node.states.secret === true || text === '') return undefined;
  const length = async (): Promise<number | undefined> => (await readText(ref, node, READ_CHARS).catch(() => undefined))?.length;
  const before = await length();
  if (before === undefined) return undefined;
  const interrupted = await focusQuietly(platform, clock, ref, node);
  if (interrupted === undefined) return undefined;
  signal?.throwIfAborted();
  if (!(await input.typeInWindow(pid, text))) return undefined;
  for (let check = 0; check < ARRIVAL_CHECKS; check += 1) {
    const now = await length();
    if (now !== undefined && now > before) return { method: 'input', via: 'window-keys', ...(interrupted ? { interrupted: true } : {}) };
    await clock.sleep(ARRIVAL_CHECK_MS, signal);
  }
  return undefined;
}

/**
 * Focuses the element through accessibility. Some toolkits (Chromium) activate the window when
 * an element grabs the focus: then the window that was active is made active again at once,
 * and the answer is true (the user's focus was taken for a moment). Undefined when it failed.
 */
async function focusQuietly(platform: Platform, clock: Clock, ref: unknown, node: UiNode): Promise<boolean | undefined> {
  const { accessibility, apps } = platform;
  const active = await apps.activeWindow?.().catch(() => undefined);
  if (!(await accessibility.focus(ref, node).catch(() => false))) return undefined;
  if (active === undefined || apps.restoreWindow === undefined) return false;
  // The window manager may carry out an activation the toolkit asked for a moment later: looked for twice.
  for (let look = 0; look < ACTIVATION_LOOKS; look += 1) {
    const now = await apps.activeWindow?.().catch(() => undefined);
    if (now !== undefined && now !== active) {
      await apps.restoreWindow(active).catch(() => undefined);
      return true;
    }
    if (look + 1 < ACTIVATION_LOOKS) await clock.sleep(ACTIVATION_WAIT_MS);
  }
  return false;
}

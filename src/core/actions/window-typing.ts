import { DeskpilotError } from '../../shared/errors';
import type { Role, UiNode } from '../../shared/ui-node';
import type { Clock } from '../clock';
import { MAX_TYPED_KEYS } from '../platform/keymap';
import type { Platform } from '../platform/types';
import type { Route } from './accessible-route';

/**
 * How often, and how long, the text is read back after keys were sent to the window: about a
 * second in all, as keys that show only after the keyboard fallback began would be typed twice.
 */
const ARRIVAL_CHECKS = 40;
const ARRIVAL_CHECK_MS = 25;
/**
 * Once keys began to arrive, the text is read back until it holds all of them, or has not changed
 * for this many checks (an app that formats, cuts at a maximum length or drops a key). Returning
 * while the app still works through the keys would verify a partial text, and Chromium crashes
 * when a client that listens to its events leaves while it handles keys (measured: 300 keys sent,
 * the CLI out after the first arrived, a segfault a second later; no crash once it waits). A
 * second, since Chromium's text can stand still for 200 ms and more while keys are still queued.
 */
const STABLE_CHECKS = 40;
/** Checks allowed per character sent, before the first arrival and after it: an app busy with a long text is given time. */
const CHECKS_PER_CHARACTER = 0.2;
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
  mode: 'append' | 'replace' = 'append',
): Promise<Route | undefined> {
  const { input } = platform;
  // A field whose text is not read back (a secret one, a sheet cell) takes keys as from a person.
  const read = textReader(platform, ref, node);
  if (input.typeInWindow === undefined || read === undefined) return undefined;
  if (mode === 'append' && text === '') return undefined;
  const before = await read();
  if (before === undefined) return undefined;
  // Appended text makes the field longer; a replaced one makes it read as the text itself.
  const arrived = (now: string): boolean => (mode === 'append' ? now.length > before.length : now !== before);
  const complete = mode === 'append' ? holdsAll(before, text) : (now: string): boolean => now === text.slice(0, READ_CHARS);
  const focused = await focusQuietly(platform, clock, ref, node);
  if (focused === undefined) return undefined;
  const { interrupted, caretPlaced } = focused;
  signal?.throwIfAborted();
  const options = mode === 'replace' ? { replace: true } : caretPlaced ? {} : { toEnd: true };
  if (!(await input.typeInWindow(pid, text, options))) return undefined;
  const route: Route = { method: 'input', via: 'window-keys', ...(interrupted ? { interrupted: true } : {}) };
  return (await untilTaken(read, arrived, complete, text.length, clock, signal)) ? route : undefined;
}

/**
 * Typing through the keyboard, the last route: `type` sends the keys, then the text is read back
 * as for keys sent to the window, so the verification sees the whole text, not its first keys.
 * A secret field and a sheet cell are not read (textReader). Gives what `type` gave.
 */
export async function typeAndWait<T>(
  platform: Platform,
  clock: Clock,
  ref: unknown,
  node: UiNode,
  text: string,
  type: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const read = textReader(platform, ref, node);
  if (read === undefined) return type();
  const before = await read();
  const typed = await type();
  // Any change counts as arrived: typed keys may replace a selection the focus kept.
  if (before !== undefined) await untilTaken(read, (now) => now !== before, holdsAll(before, text), text.length, clock, signal);
  return typed;
}

/**
 * Reads an element's text for the read-back, or undefined where it is not read. A secret field's
 * text is never read, so its arrival could not be checked. A sheet cell shows its text only once
 * committed, and LibreOffice drops keys sent to its window: the read-back would wait out its whole
 * second for nothing (measured 1.1 s a cell), so a cell takes keys as from a person, as set_value
 * already sends them.
 */
function textReader(platform: Platform, ref: unknown, node: UiNode): (() => Promise<string | undefined>) | undefined {
  const readText = platform.accessibility.readText?.bind(platform.accessibility);
  if (readText === undefined || node.states.secret === true || node.role === 'cell') return undefined;
  return () => readText(ref, node, READ_CHARS).catch(() => undefined);
}

/** Whether a field that held `before` now holds `text` after it too; Return and Tab add no text to a one-line field (they submit, or move the focus), so they are not counted. */
function holdsAll(before: string, text: string): (now: string) => boolean {
  const grows = text.replace(/[\n\t]/g, '').length;
  return (now) => now.length >= Math.min(before.length + grows, READ_CHARS);
}

/**
 * Reads the text back until the keys sent have been taken (see STABLE_CHECKS): true once they
 * all arrived, or some did and the text then stopped changing (a field that formats what it is
 * given was still changed: the verification says what it holds); false when none arrived in the
 * time allowed, so the caller may try the keyboard.
 */
async function untilTaken(
  read: () => Promise<string | undefined>,
  arrived: (now: string) => boolean,
  complete: (now: string) => boolean,
  characters: number,
  clock: Clock,
  signal?: AbortSignal,
): Promise<boolean> {
  let last: string | undefined;
  let unchanged = 0;
  let since: number | undefined;
  // A long text is given longer to show its first keys too: a browser flooded with keys can leave
  // its text unchanged for over a second, and the keyboard fallback would then type it all again.
  const allowed = ARRIVAL_CHECKS + Math.ceil(characters * CHECKS_PER_CHARACTER);
  for (let check = 0; check < (since === undefined ? allowed : since + allowed); check += 1) {
    const now = await read();
    if (now !== undefined && complete(now)) return true;
    if (now !== undefined && arrived(now)) {
      since ??= check;
      unchanged = now === last ? unchanged + 1 : 0;
      if (unchanged >= STABLE_CHECKS) return true;
    }
    last = now;
    await clock.sleep(ARRIVAL_CHECK_MS, signal);
  }
  return since !== undefined;
}

/** Elements whose whole text set_value may replace with keys: editable text, never a list or a cell. */
const REPLACEABLE = new Set<Role>(['textfield', 'textarea', 'document', 'spinbutton', 'combobox']);

/**
 * set_value on an editable text element whose text cannot be set through accessibility (a web
 * field in Chromium has no EditableText): Ctrl+A and the new text, sent to its window alone, and
 * read back. Undefined when that cannot be done, so the caller reports the element unsettable.
 */
export async function replaceInWindow(
  platform: Platform,
  clock: Clock,
  pid: number,
  ref: unknown,
  node: UiNode,
  value: string,
  signal?: AbortSignal,
): Promise<Route | undefined> {
  if (node.states.editable !== true || !REPLACEABLE.has(node.role)) return undefined;
  return typeInWindow(platform, clock, pid, ref, node, value, signal, 'replace');
}

/**
 * Focuses the element through accessibility, the way that leaves its window inactive where the
 * backend knows one (focusInBackground). Should the window be activated all the same (a toolkit
 * that activates on any focus change), the window that was active is made active again at once,
 * and `interrupted` is true (the user's focus was taken for a moment). Undefined when it failed.
 */
async function focusQuietly(platform: Platform, clock: Clock, ref: unknown, node: UiNode): Promise<{ interrupted: boolean; caretPlaced: boolean } | undefined> {
  const { accessibility, apps } = platform;
  const active = await apps.activeWindow?.().catch(() => undefined);
  const focused =
    accessibility.focusInBackground === undefined
      ? (await accessibility.focus(ref, node).catch(() => false)) && 'caret-placed'
      : await accessibility.focusInBackground(ref, node).catch(() => false as const);
  if (focused === false) return undefined;
  const caretPlaced = focused === 'caret-placed';
  if (active === undefined || apps.restoreWindow === undefined) return { interrupted: false, caretPlaced };
  // The window manager may carry out an activation the toolkit asked for a moment later: looked for twice.
  for (let look = 0; look < ACTIVATION_LOOKS; look += 1) {
    const now = await apps.activeWindow?.().catch(() => undefined);
    if (now !== undefined && now !== active) {
      await apps.restoreWindow(active).catch(() => undefined);
      return { interrupted: true, caretPlaced };
    }
    if (look + 1 < ACTIVATION_LOOKS) await clock.sleep(ACTIVATION_WAIT_MS);
  }
  return { interrupted: false, caretPlaced };
}

/**
 * Refuses, before the user is asked or their keyboard taken, a text longer than MAX_TYPED_KEYS
 * for the keyboard fallback: typed key by key it would hold the keyboard for minutes. `instead`
 * says what the model can do. Counted in characters (code points), as the keys go.
 */
export function checkTypedLength(text: string, instead: string): void {
  let characters = 0;
  for (const _character of text) characters += 1;
  if (characters <= MAX_TYPED_KEYS) return;
  throw new DeskpilotError(
    'ACTION_FAILED',
    `this element takes no inserted text, and ${characters} characters are too many to type as keys (at most ${MAX_TYPED_KEYS}); ${instead}`,
    { data: { reason: 'too-long-to-type', characters, max: MAX_TYPED_KEYS } },
  );
}

import { X11Connection } from './connection';
import { OPCODE, pick, words, X11Session, type WindowMatch } from './session';
import { MAX_TYPED_KEYS } from '../../keymap';

const GET_KEYBOARD_MAPPING = 101;
const MIN_KEYCODE = 8;
const KEYCODES = 248;
const KEY_PRESS = 2;
const KEY_RELEASE = 3;
const KEY_PRESS_MASK = 1;
const KEY_RELEASE_MASK = 2;
const SHIFT_MASK = 1;
const CONTROL_MASK = 4;
const GET_INPUT_FOCUS = 43;
const FOCUS_IN = 9;
const FOCUS_OUT = 10;
const FOCUS_CHANGE_MASK = 1 << 21;
/** NotifyNonlinear: the focus came from (or went to) an unrelated window, as when another app had it. */
const NOTIFY_NONLINEAR = 3;
/** The keysym of End: Ctrl+End puts the caret at the end of a field's whole text. */
const END_KEYSYM = 0xff57;
const A_KEYSYM = 0x61;
const BACKSPACE_KEYSYM = 0xff08;

export interface PlannedKey {
  keycode: number;
  shift: boolean;
  control?: boolean;
}

export interface WindowTypingOptions {
  /** Ctrl+End first: the caret goes to the end of the text, for a field focused without placing it. */
  toEnd?: boolean;
  /** Ctrl+A first, so the text replaces the field's whole content (an empty text deletes it). */
  replace?: boolean;
}

/** The keysym that types a character: Latin-1 is its own code, the rest Unicode keysyms (0x1000000 + code). */
function keysymOf(character: string): number {
  if (character === '\n') return 0xff0d;
  if (character === '\t') return 0xff09;
  const code = character.codePointAt(0) ?? 0;
  if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) return code;
  return 0x1000000 + code;
}

/**
 * The key (and shift) for each character, read from a GetKeyboardMapping reply; undefined when
 * a character has no key on the first two levels of this keyboard, so nothing is half typed.
 */
export function planKeys(mapping: Buffer, text: string): PlannedKey[] | undefined {
  const where = keysOf(mapping);
  const keys: PlannedKey[] = [];
  for (const character of text) {
    const key = where.get(keysymOf(character));
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

/**
 * The keys that move the caret or select before the text (Ctrl+End, or Ctrl+A), and after it
 * (BackSpace, deleting a selection that nothing replaces). Undefined when this keyboard lacks one.
 */
export function editingKeys(mapping: Buffer, text: string, options: WindowTypingOptions): { before: PlannedKey[]; after: PlannedKey[] } | undefined {
  const where = keysOf(mapping);
  const control = (keysym: number): PlannedKey | undefined => {
    const key = where.get(keysym);
    return key === undefined ? undefined : { keycode: key.keycode, shift: false, control: true };
  };
  const before = options.replace === true ? [control(A_KEYSYM)] : options.toEnd === true ? [control(END_KEYSYM)] : [];
  const after = options.replace === true && text === '' ? [where.get(BACKSPACE_KEYSYM)] : [];
  if (before.includes(undefined) || after.includes(undefined)) return undefined;
  return { before: before as PlannedKey[], after: after as PlannedKey[] };
}

/** Each keysym's key on the first two levels of a GetKeyboardMapping reply. */
function keysOf(mapping: Buffer): Map<number, PlannedKey> {
  const perKeycode = mapping.readUInt8(1);
  const where = new Map<number, PlannedKey>();
  const count = Math.floor((mapping.length - 32) / (perKeycode * 4));
  for (let index = 0; index < count; index += 1) {
    for (const level of [0, 1]) {
      if (level >= perKeycode) continue;
      const keysym = mapping.readUInt32LE(32 + (index * perKeycode + level) * 4);
      if (keysym !== 0 && !where.has(keysym)) where.set(keysym, { keycode: MIN_KEYCODE + index, shift: level === 1 });
    }
  }
  return where;
}

/** One core KeyPress or KeyRelease event aimed at `window`, as SendEvent carries it. */
export function keyEvent(type: typeof KEY_PRESS | typeof KEY_RELEASE, key: PlannedKey, root: number, window: number): Buffer {
  const event = Buffer.alloc(32);
  event.writeUInt8(type, 0);
  event.writeUInt8(key.keycode, 1);
  // time 0 (CurrentTime), then root, event window, no child, zero coordinates.
  event.writeUInt32LE(root, 8);
  event.writeUInt32LE(window, 12);
  event.writeUInt16LE((key.shift ? SHIFT_MASK : 0) | (key.control === true ? CONTROL_MASK : 0), 28);
  event.writeUInt8(1, 30);
  return event;
}

/** A FocusIn or FocusOut event about `window`, as SendEvent carries it. */
export function focusEvent(type: typeof FOCUS_IN | typeof FOCUS_OUT, window: number): Buffer {
  const event = Buffer.alloc(32);
  event.writeUInt8(type, 0);
  event.writeUInt8(NOTIFY_NONLINEAR, 1);
  event.writeUInt32LE(window, 4);
  // mode 0: NotifyNormal, a focus change that is not a grab's.
  return event;
}

/** Window levels climbed from the focus looking for the app's window: X trees are shallow. */
const MAX_CLIMB = 16;

/** Whether the X input focus is on `window` or inside it (an app may focus a child window of its own). */
async function hasFocus(x: X11Connection, window: number): Promise<boolean> {
  let current = (await x.request(GET_INPUT_FOCUS, 0, Buffer.alloc(0), 'GetInputFocus')).readUInt32LE(8);
  for (let level = 0; level < MAX_CLIMB && current !== 0 && current !== 1 && current !== x.root; level += 1) {
    if (current === window) return true;
    current = (await x.request(OPCODE.queryTree, 0, words(current), 'QueryTree')).readUInt32LE(12);
  }
  return false;
}

/**
 * Types `text` into the app's top-level window with SendEvent, as `xdotool type --window`
 * does: the events go to that window alone, so the X input focus, the window stack and the
 * user's own keyboard are left as they are. The app delivers them to the element focused
 * inside the window. A window without the X focus is first sent a FocusIn of its own, and a
 * FocusOut after: Chromium drops keys while it believes it is inactive, and takes sent ones
 * once told it has the focus, while the real focus (and the user's keys) stay where they were.
 * Apps may ignore sent events (they carry the send_event flag), so the caller checks the text
 * arrived. False when the app has no window, or a character has no key.
 */
export async function typeInWindow(
  env: Record<string, string | undefined>,
  match: WindowMatch,
  text: string,
  options: WindowTypingOptions = {},
  timeoutMs = 1000,
): Promise<boolean> {
  if ([...text].length > MAX_TYPED_KEYS) return false;
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const window = await pick(session, (await session.topLevel()).windows, match);
    if (window === undefined) return false;
    const request = Buffer.alloc(4);
    request.writeUInt8(MIN_KEYCODE, 0);
    request.writeUInt8(KEYCODES, 1);
    const mapping = await x.request(GET_KEYBOARD_MAPPING, 0, request, 'GetKeyboardMapping');
    const keys = planKeys(mapping, text);
    const editing = editingKeys(mapping, text, options);
    if (keys === undefined || editing === undefined) return false;
    const told = !(await hasFocus(x, window));
    const tell = (type: typeof FOCUS_IN | typeof FOCUS_OUT): Promise<void> =>
      x.sendChecked(OPCODE.sendEvent, 0, Buffer.concat([words(window, FOCUS_CHANGE_MASK), focusEvent(type, window)]), 'SendEvent(focus)');
    if (told) await tell(FOCUS_IN);
    try {
      for (const key of [...editing.before, ...keys, ...editing.after]) {
        for (const [type, mask] of [
          [KEY_PRESS, KEY_PRESS_MASK],
          [KEY_RELEASE, KEY_RELEASE_MASK],
        ] as const) {
          // propagate: the event climbs to the ancestor that selects key events, as xdotool sends it.
          // Checked one by one: a window that closes halfway stops the typing with an error.
          await x.sendChecked(OPCODE.sendEvent, 1, Buffer.concat([words(window, mask), keyEvent(type, key, x.root, window)]), 'SendEvent(key)');
        }
      }
    } finally {
      // The window is told it lost the focus again, unless the user gave it the real focus meanwhile.
      if (told && !(await hasFocus(x, window).catch(() => true))) await tell(FOCUS_OUT).catch(() => undefined);
    }
    return true;
  } finally {
    x.close();
  }
}

import { X11Connection } from './connection';
import { OPCODE, pick, words, X11Session, type WindowMatch } from './session';

const GET_KEYBOARD_MAPPING = 101;
const MIN_KEYCODE = 8;
const KEYCODES = 248;
const KEY_PRESS = 2;
const KEY_RELEASE = 3;
const KEY_PRESS_MASK = 1;
const KEY_RELEASE_MASK = 2;
const SHIFT_MASK = 1;
/** Keys of one text sent in one write; the server takes them in order. */
const MAX_KEYS = 4096;

export interface PlannedKey {
  keycode: number;
  shift: boolean;
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
  const keys: PlannedKey[] = [];
  for (const character of text) {
    const key = where.get(keysymOf(character));
    if (key === undefined) return undefined;
    keys.push(key);
  }
  return keys;
}

/** One core KeyPress or KeyRelease event aimed at `window`, as SendEvent carries it. */
export function keyEvent(type: typeof KEY_PRESS | typeof KEY_RELEASE, key: PlannedKey, root: number, window: number): Buffer {
  const event = Buffer.alloc(32);
  event.writeUInt8(type, 0);
  event.writeUInt8(key.keycode, 1);
  // time 0 (CurrentTime), then root, event window, no child, zero coordinates.
  event.writeUInt32LE(root, 8);
  event.writeUInt32LE(window, 12);
  event.writeUInt16LE(key.shift ? SHIFT_MASK : 0, 28);
  event.writeUInt8(1, 30);
  return event;
}

/**
 * Types `text` into the app's top-level window with SendEvent, as `xdotool type --window`
 * does: the events go to that window alone, so the X input focus, the window stack and the
 * user's own keyboard are left as they are. The app delivers them to the element focused
 * inside the window. Apps may ignore sent events (they carry the send_event flag), so the
 * caller checks the text arrived. False when the app has no window, or a character has no key.
 */
export async function typeInWindow(env: Record<string, string | undefined>, match: WindowMatch, text: string, timeoutMs = 1000): Promise<boolean> {
  if ([...text].length > MAX_KEYS) return false;
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const window = await pick(session, (await session.topLevel()).windows, match);
    if (window === undefined) return false;
    const request = Buffer.alloc(4);
    request.writeUInt8(MIN_KEYCODE, 0);
    request.writeUInt8(KEYCODES, 1);
    const keys = planKeys(await x.request(GET_KEYBOARD_MAPPING, 0, request, 'GetKeyboardMapping'), text);
    if (keys === undefined) return false;
    for (const key of keys) {
      for (const [type, mask] of [
        [KEY_PRESS, KEY_PRESS_MASK],
        [KEY_RELEASE, KEY_RELEASE_MASK],
      ] as const) {
        // propagate: the event climbs to the ancestor that selects key events, as xdotool sends it.
        // Checked one by one: a window that closes halfway stops the typing with an error.
        await x.sendChecked(OPCODE.sendEvent, 1, Buffer.concat([words(window, mask), keyEvent(type, key, x.root, window)]), 'SendEvent(key)');
      }
    }
    return true;
  } finally {
    x.close();
  }
}

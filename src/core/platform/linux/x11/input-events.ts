import type { Modifier } from '../../types';
import { X11Connection } from './connection';

/**
 * The user's pointer and key presses, from the X server, for the workflow recorder: XInput2
 * raw events selected on the root window, which arrive whatever window has the pointer or the
 * focus and whoever grabbed input, without taking anything from the apps. Raw events carry no
 * position, so each button press asks the server where the pointer is (QueryPointer).
 */

export type InputEvent = { kind: 'button'; button: number; x: number; y: number } | { kind: 'key'; key: string; modifiers: Modifier[] };

const QUERY_EXTENSION = 98;
const QUERY_POINTER = 38;
const GET_KEYBOARD_MAPPING = 101;
const XI_SELECT_EVENTS = 46;
const XI_QUERY_VERSION = 47;
const XI_ALL_MASTER_DEVICES = 1;
const XI_RAW_KEY_PRESS = 13;
const XI_RAW_KEY_RELEASE = 14;
const XI_RAW_BUTTON_PRESS = 15;
const GENERIC_EVENT = 35;
const MIN_KEYCODE = 8;
const KEYCODES = 248;

const pad = (length: number): number => (4 - (length % 4)) % 4;

/** Keysyms of the keys a workflow names, as the key action spells them. */
const NAMED: Readonly<Record<number, string>> = {
  0xff0d: 'return',
  0xff8d: 'return',
  0xff09: 'tab',
  0xff1b: 'escape',
  0xff08: 'backspace',
  0xffff: 'delete',
  0xff50: 'home',
  0xff57: 'end',
  0xff51: 'left',
  0xff52: 'up',
  0xff53: 'right',
  0xff54: 'down',
  0xff55: 'pageup',
  0xff56: 'pagedown',
  0x20: 'space',
};
const MODIFIERS: Readonly<Record<number, Modifier>> = {
  0xffe1: 'shift',
  0xffe2: 'shift',
  0xffe3: 'ctrl',
  0xffe4: 'ctrl',
  0xffe9: 'alt',
  0xffea: 'alt',
  0xffe7: 'meta',
  0xffe8: 'meta',
  0xffeb: 'meta',
  0xffec: 'meta',
};

/** A keysym as the key action names it: a named key, F1–F12, one printable character, or undefined. */
export function keyName(keysym: number): string | undefined {
  const named = NAMED[keysym];
  if (named !== undefined) return named;
  if (keysym >= 0xffbe && keysym <= 0xffc9) return `f${keysym - 0xffbe + 1}`;
  if (keysym > 0x20 && keysym < 0x7f) return String.fromCharCode(keysym).toLowerCase();
  if (keysym >= 0xa0 && keysym <= 0xff) return String.fromCharCode(keysym).toLowerCase();
  return undefined;
}

function extensionName(name: string): Buffer {
  const text = Buffer.from(name, 'latin1');
  const head = Buffer.alloc(4);
  head.writeUInt16LE(text.length, 0);
  return Buffer.concat([head, text, Buffer.alloc(pad(text.length))]);
}

export interface InputListener {
  close(): void;
}

/** Listens to the display in `env.DISPLAY` until closed; each press goes to `onEvent` in order. */
export async function listenInput(
  env: Record<string, string | undefined>,
  onEvent: (event: InputEvent) => void,
  onError: (error: Error) => void = () => undefined,
): Promise<InputListener> {
  const x = await X11Connection.open(env, 2_000);
  try {
    const extension = await x.request(QUERY_EXTENSION, 0, extensionName('XInputExtension'), 'QueryExtension');
    if (extension.readUInt8(8) !== 1) throw new Error('the X server has no XInput extension');
    const major = extension.readUInt8(9);
    // XI 2.1 or later, announced: the server sends raw events to a client that says 2.0 only while
    // no one holds a grab, and an open menu or combo box list grabs the pointer, so the click that
    // chooses an item would never arrive.
    const version = Buffer.alloc(4);
    version.writeUInt16LE(2, 0);
    version.writeUInt16LE(2, 2);
    await x.request(major, XI_QUERY_VERSION, version, 'XIQueryVersion');
    const mapping = Buffer.alloc(4);
    mapping.writeUInt8(MIN_KEYCODE, 0);
    mapping.writeUInt8(KEYCODES, 1);
    const keyboard = await x.request(GET_KEYBOARD_MAPPING, 0, mapping, 'GetKeyboardMapping');
    const perKeycode = keyboard.readUInt8(1);
    const keysymOf = (keycode: number): number => {
      const offset = 32 + (keycode - MIN_KEYCODE) * perKeycode * 4;
      return keycode < MIN_KEYCODE || offset + 4 > keyboard.length ? 0 : keyboard.readUInt32LE(offset);
    };
    const held = new Map<number, Modifier>();
    const pointer = Buffer.alloc(4);
    pointer.writeUInt32LE(x.root, 0);
    // Button presses wait for their position; a chain keeps every event in the order it came.
    let chain: Promise<void> = Promise.resolve();
    x.onEvent = (packet) => {
      if ((packet.readUInt8(0) & 0x7f) !== GENERIC_EVENT || packet.readUInt8(1) !== major) return;
      const type = packet.readUInt16LE(8);
      const detail = packet.readUInt32LE(16);
      if (type === XI_RAW_KEY_PRESS || type === XI_RAW_KEY_RELEASE) {
        const keysym = keysymOf(detail);
        const modifier = MODIFIERS[keysym];
        if (modifier !== undefined) {
          if (type === XI_RAW_KEY_PRESS) held.set(detail, modifier);
          else held.delete(detail);
          return;
        }
        const key = type === XI_RAW_KEY_PRESS ? keyName(keysym) : undefined;
        if (key !== undefined) {
          const modifiers = [...new Set(held.values())];
          chain = chain.then(() => onEvent({ kind: 'key', key, modifiers }));
        }
        return;
      }
      if (type === XI_RAW_BUTTON_PRESS) {
        const where = x.request(QUERY_POINTER, 0, pointer, 'QueryPointer');
        chain = chain.then(async () => {
          const reply = await where;
          onEvent({ kind: 'button', button: detail, x: reply.readInt16LE(16), y: reply.readInt16LE(18) });
        });
        chain = chain.catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
      }
    };
    const select = Buffer.alloc(16);
    select.writeUInt32LE(x.root, 0);
    select.writeUInt16LE(1, 4);
    select.writeUInt16LE(XI_ALL_MASTER_DEVICES, 8);
    select.writeUInt16LE(1, 10);
    select.writeUInt32LE((1 << XI_RAW_KEY_PRESS) | (1 << XI_RAW_KEY_RELEASE) | (1 << XI_RAW_BUTTON_PRESS), 12);
    await x.sendChecked(major, XI_SELECT_EVENTS, select, 'XISelectEvents');
    return { close: () => x.close() };
  } catch (error) {
    x.close();
    throw error;
  }
}

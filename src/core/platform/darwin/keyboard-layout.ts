import type { Integer, MacNative } from '../../../../native/macos';

/** A key of the current layout: its virtual key code, and whether it needs shift for the character. */
export interface LayoutKey {
  code: number;
  shift: boolean;
}

/** kUCKeyActionDisplay: the character a key shows, with no dead-key sequence started. */
const KEY_ACTION_DISPLAY = 3;
/** UCKeyTranslate takes Carbon's modifier bits shifted right by 8: shiftKey (0x200) becomes 2. */
const SHIFT_STATE = 2;
/** kUCKeyTranslateNoDeadKeysMask (1 << kUCKeyTranslateNoDeadKeysBit): a dead key gives its own character. */
const NO_DEAD_KEYS = 1;
/** Virtual key codes 0–127 cover every key of Apple's keyboards (HIToolbox Events.h kVK_*). */
const KEY_CODES = 128;
/** The numeric keypad (kVK_ANSI_Keypad*): its characters are taken only when no main key types them. */
const KEYPAD = new Set([0x41, 0x43, 0x45, 0x47, 0x4b, 0x4c, 0x4e, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5b, 0x5c]);

/** A single printable character: no control characters, and none of AppKit's function-key characters (U+F700–U+F8FF). */
function printable(text: string): boolean {
  const code = text.codePointAt(0) ?? 0;
  return [...text].length === 1 && code >= 0x20 && code !== 0x7f && !(code >= 0xf700 && code <= 0xf8ff);
}

/**
 * The keys of the keyboard layout in use now, by the character each types: the main keys
 * unshifted, then with shift, then the keypad. Key codes name physical keys, so a US table
 * sends the wrong character (and the wrong shortcut) on any other layout: cmd+z is key 0x10 on
 * a German keyboard, not 0x06. Read as enigo does (src/macos/macos_impl.rs): the current
 * keyboard layout input source (TISCopyCurrentKeyboardLayoutInputSource, which still has
 * 'uchr' data while an input method is active), its kTISPropertyUnicodeKeyLayoutData, and
 * UCKeyTranslate per key. Undefined when the layout has no Unicode data; callers fall back
 * to the US table. Read on every call: the user can switch layouts at any time, and 256
 * in-process calls cost well under a millisecond.
 *
 * TIS calls must run on the main thread: macOS 26 and later trap (dispatch_assert_queue) off it
 * (deskflow/deskflow#9924, rmarinsky/Diduny#42; enigo says so too). These are synchronous
 * koffi calls on the JS thread, which is the main thread in plain Node and is expected to be
 * in the utilityProcess; pthread_main_np checks, and off it the US table is used, never a trap.
 */
export function currentLayout(native: MacNative): Map<string, LayoutKey> | undefined {
  if (native.pthread_main_np() !== 1) return undefined;
  const source = native.TISCopyCurrentKeyboardLayoutInputSource();
  if (source === null) return undefined;
  try {
    // Get rule: the layout data belongs to the input source, which outlives the loop.
    const data = native.TISGetInputSourceProperty(source, native.kTISPropertyUnicodeKeyLayoutData);
    const layout = data === null ? null : native.CFDataGetBytePtr(data);
    if (layout === null) return undefined;
    const keyboardType = native.LMGetKbdType();
    const keys = new Map<string, LayoutKey>();
    const buffer = new Uint16Array(4);
    const passes: [boolean, boolean][] = [
      [false, false],
      [true, false],
      [false, true],
      [true, true],
    ];
    for (const [shift, keypad] of passes) {
      for (let code = 0; code < KEY_CODES; code += 1) {
        if (KEYPAD.has(code) !== keypad) continue;
        const deadKeyState: [number] = [0];
        const length: [Integer] = [0];
        const status = native.UCKeyTranslate(
          layout,
          code,
          KEY_ACTION_DISPLAY,
          shift ? SHIFT_STATE : 0,
          keyboardType,
          NO_DEAD_KEYS,
          deadKeyState,
          buffer.length,
          length,
          buffer,
        );
        if (status !== 0) continue;
        const text = String.fromCharCode(...buffer.subarray(0, Math.min(Number(length[0]), buffer.length)));
        if (printable(text) && !keys.has(text)) keys.set(text, { code, shift });
      }
    }
    return keys;
  } finally {
    native.CFRelease(source);
  }
}

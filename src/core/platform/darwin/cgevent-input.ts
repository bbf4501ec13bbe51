import type { MacNative, Nullable, Pointer } from '../../../../native/macos';
import { strokeForKeyName } from '../keymap';
import type { Modifier, Point, ScrollDirection } from '../types';
import { currentLayout, type LayoutKey } from './keyboard-layout';
import { MAC_KEY_CODES, MODIFIER_FLAGS, intrinsicFlags } from './keycodes';

export const CGEventType = { LeftMouseDown: 1, LeftMouseUp: 2, MouseMoved: 5, LeftMouseDragged: 6, KeyDown: 10, KeyUp: 11, ScrollWheel: 22 } as const;
const LEFT_BUTTON = 0;
const SCROLL_UNIT_LINE = 1;
const CLICK_STATE_FIELD = 1;
const HID_EVENT_TAP = 0;
const RETURN_KEY = 0x24;
const TAB_KEY = 0x30;
/**
 * The key code for a character no key of the layout types. Keycode 0 is kVK_ANSI_A, which an
 * app that ignores the Unicode string and translates the key code types as "a"
 * (omacom/try-omarchy#222, QEMU; Quicksilver#1827, remote desktop clients); kVK_F20 types
 * nothing there. (Inference: no public code was found that picks a key for this case.)
 */
export const NO_KEY_CODE = 0x5a;
/**
 * Pause after each key event of typed text. CGEventKeyboardSetUnicodeString's 20 UTF-16 units
 * are where it truncates (enigo#68), not a safe size, and events sent without a gap get lost
 * (enigo#260); MacosUseSDK (InputController.swift writeText) sends one character per event and
 * waits 15 ms after each.
 */
export const TYPE_GAP_MS = 15;
/**
 * Pause between the mouse events of one click: a mouseUp posted right after its mouseDown is
 * dropped (stablyai/orca#12839, measured on macOS 26, paces them 50 ms apart).
 */
export const MOUSE_GAP_MS = 50;

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Synthetic input through CGEvent, the primary driver on macOS (DarwinInput says why). Every
 * CGEventCreate* result is released.
 *
 * Every event goes through the HID tap, like a real device, to the frontmost app and the window
 * under the point:
 * - Mouse and scroll events posted to a pid carry no window, and AppKit routes them to no view:
 *   Hammerspoon#2883 and pyobjc#564 report them ignored, stablyai/orca#12839 measured it.
 * - Keys posted to a pid do not reach Chromium and Electron apps (Hammerspoon#1282), which read
 *   keyboard input from the window server's session, not the process's event queue.
 * MacosUseSDK (InputController.swift, postEvent) and libnut (libnut-core src/macos/keypress.c)
 * post everything at the HID tap after the app is activated; so does this driver. The caller
 * makes the target frontmost first: the engine for keys and text (ensureFrontmost), DarwinInput
 * for clicks, presses and scrolls.
 */
export class CgEventInput {
  private position: Point | undefined;
  private held = false;
  private posted = 0;

  constructor(
    private readonly native: MacNative,
    private readonly sleep: (ms: number) => Promise<void> = realSleep,
  ) {}

  /** Events posted so far: DarwinInput falls back to nut-js only for a step that posted none. */
  get postedCount(): number {
    return this.posted;
  }

  /** Kept in step by the other driver, so a drag that began there continues correctly here. */
  note(state: { position?: Point; held?: boolean }): void {
    if (state.position !== undefined) this.position = state.position;
    if (state.held !== undefined) this.held = state.held;
  }

  async click(point: Point): Promise<void> {
    this.mouse(CGEventType.MouseMoved, point);
    await this.sleep(MOUSE_GAP_MS);
    this.mouse(CGEventType.LeftMouseDown, point);
    await this.sleep(MOUSE_GAP_MS);
    this.mouse(CGEventType.LeftMouseUp, point);
  }

  /** While the button is held a move is a drag: apps ignore plain moves during one. */
  moveMouse(point: Point): Promise<void> {
    this.mouse(this.held ? CGEventType.LeftMouseDragged : CGEventType.MouseMoved, point);
    return Promise.resolve();
  }

  mouseDown(): Promise<void> {
    this.mouse(CGEventType.LeftMouseDown, this.position ?? this.cursor());
    this.held = true;
    return Promise.resolve();
  }

  mouseUp(): Promise<void> {
    this.held = false;
    this.mouse(CGEventType.LeftMouseUp, this.position ?? this.cursor());
    return Promise.resolve();
  }

  /**
   * One key event pair per character (a code point: a surrogate pair stays whole), carrying the
   * character as its Unicode string, and the key code (with shift) that types it on the current
   * layout, for apps that read the key code instead of the string.
   */
  async typeText(text: string, signal?: AbortSignal): Promise<void> {
    // Read for each call, never cached: the user can switch layouts between two actions.
    const layout = currentLayout(this.native);
    for (const character of text) {
      // Between characters, so a key that went down also came up.
      signal?.throwIfAborted();
      const key = keyForCharacter(character, layout);
      // A line break is Return, which types "\r": "\n" as the string is dropped by some apps (enigo#260).
      const typed = character === '\n' ? '\r' : character;
      const units = [...Array(typed.length).keys()].map((index) => typed.charCodeAt(index));
      for (const down of [true, false]) {
        this.post(this.native.CGEventCreateKeyboardEvent(null, key.code, down), (event) => {
          // Set every time: without it the event inherits modifiers held right now and "a" becomes Cmd+A.
          this.native.CGEventSetFlags(event, key.shift ? MODIFIER_FLAGS.shift : 0n);
          this.native.CGEventKeyboardSetUnicodeString(event, units.length, units);
        });
        await this.sleep(TYPE_GAP_MS);
      }
    }
  }

  /**
   * Character keys follow the current layout (cmd+z is another key on a German keyboard); named
   * keys are the same on every layout. Paced as typing is: MacosUseSDK waits 15 ms after each
   * key event (InputController.swift, postEvent). The pid is not posted to (see the class comment).
   */
  async pressKey(name: string, modifiers: Modifier[], _pid?: number): Promise<void> {
    const stroke = strokeForKeyName(name);
    const layoutKey = [...name].length === 1 ? currentLayout(this.native)?.get(name) : undefined;
    const code = layoutKey?.code ?? (stroke === undefined ? undefined : MAC_KEY_CODES[stroke.key]);
    if (stroke === undefined || code === undefined) throw new Error(`no macOS key code for '${name}'`);
    const held = new Set<Modifier>(modifiers);
    if (layoutKey?.shift ?? stroke.shift) held.add('shift');
    const flags = [...held].reduce((mask, modifier) => mask | MODIFIER_FLAGS[modifier], intrinsicFlags(stroke.key));
    for (const down of [true, false]) {
      this.post(this.native.CGEventCreateKeyboardEvent(null, code, down), (event) => this.native.CGEventSetFlags(event, flags));
      await this.sleep(TYPE_GAP_MS);
    }
  }

  /** Line units; wheel1 is vertical (positive = up), wheel2 horizontal (positive = left). The pointer goes there first, so the view under it scrolls. */
  async scroll(point: Point, direction: ScrollDirection, amount: number): Promise<void> {
    this.mouse(CGEventType.MouseMoved, point);
    await this.sleep(MOUSE_GAP_MS);
    const steps = Math.max(1, Math.round(amount));
    const vertical = direction === 'up' ? steps : direction === 'down' ? -steps : 0;
    const horizontal = direction === 'left' ? steps : direction === 'right' ? -steps : 0;
    this.post(this.native.CGEventCreateScrollWheelEvent2(null, SCROLL_UNIT_LINE, 2, vertical, horizontal, 0), (event) =>
      this.native.CGEventSetLocation(event, { x: point.x, y: point.y }),
    );
  }

  private mouse(type: number, point: Point): void {
    this.position = point;
    const event = this.native.CGEventCreateMouseEvent(null, type, { x: point.x, y: point.y }, LEFT_BUTTON);
    this.post(event, (event) => {
      if (type === CGEventType.LeftMouseDown || type === CGEventType.LeftMouseUp) this.native.CGEventSetIntegerValueField(event, CLICK_STATE_FIELD, 1);
    });
  }

  /** Where the pointer is now, for a press with no move before it. */
  private cursor(): Point {
    const event = this.native.CGEventCreate(null);
    if (event === null) return { x: 0, y: 0 };
    try {
      const { x, y } = this.native.CGEventGetLocation(event);
      return { x, y };
    } finally {
      this.native.CFRelease(event);
    }
  }

  /** Through the HID tap (see the class comment). */
  private post(event: Nullable, prepare: (event: Pointer) => void): void {
    if (event === null) throw new Error('CGEventCreate returned NULL');
    try {
      prepare(event);
      this.native.CGEventPost(HID_EVENT_TAP, event);
      this.posted += 1;
    } finally {
      this.native.CFRelease(event);
    }
  }
}

/** The key for one typed character: Return and Tab by their keys, others by the layout, else a key that types nothing. */
function keyForCharacter(character: string, layout: Map<string, LayoutKey> | undefined): LayoutKey {
  if (character === '\n' || character === '\r') return { code: RETURN_KEY, shift: false };
  if (character === '\t') return { code: TAB_KEY, shift: false };
  // The US table only when the layout is unknown: on a known layout, a US position would type another character.
  const key = layout === undefined ? usKey(character) : layout.get(character);
  return key ?? { code: NO_KEY_CODE, shift: false };
}

/** The US table, for when the layout cannot be read (no Unicode layout data, or not on the main thread). */
function usKey(character: string): LayoutKey | undefined {
  const stroke = strokeForKeyName(character);
  const code = stroke === undefined ? undefined : MAC_KEY_CODES[stroke.key];
  return stroke === undefined || code === undefined ? undefined : { code, shift: stroke.shift };
}

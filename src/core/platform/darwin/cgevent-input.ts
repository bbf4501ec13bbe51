import type { MacNative, Nullable, Pointer } from '../../../../native/macos';
import { strokeForKeyName } from '../keymap';
import { isProcessAlive } from '../process';
import type { Modifier, Point, ScrollDirection } from '../types';
import { MAC_KEY_CODES, MODIFIER_FLAGS, intrinsicFlags } from './keycodes';

export const CGEventType = { LeftMouseDown: 1, LeftMouseUp: 2, MouseMoved: 5, LeftMouseDragged: 6, KeyDown: 10, KeyUp: 11, ScrollWheel: 22 } as const;
const LEFT_BUTTON = 0;
const SCROLL_UNIT_LINE = 1;
const CLICK_STATE_FIELD = 1;
const HID_EVENT_TAP = 0;
/** UTF-16 units per event: apps are reported to drop longer strings (a widely copied limit). */
export const UNICODE_CHUNK = 20;

/**
 * Synthetic input through CGEvent, the fallback driver. Events go to one process with
 * CGEventPostToPid (it does not raise that app's window); without a known target they go
 * through the HID tap like a real device. Every CGEventCreate* result is released here.
 *
 * Limitation: only pressKey is given a pid. Every other call posts to `target()`, the pid
 * of the element last resolved for an action (see MacAccessibility), so a scroll or drag
 * with no element call before it goes to the app last acted on. A pid that is no longer
 * alive is never posted to: those events go through the HID tap instead.
 */
export class CgEventInput {
  private position: Point | undefined;
  private held = false;

  constructor(
    private readonly native: MacNative,
    private readonly target: () => number | undefined,
    private readonly isAlive: (pid: number) => boolean = isProcessAlive,
  ) {}

  /** Kept in step by the other driver, so a drag that began there continues correctly here. */
  note(state: { position?: Point; held?: boolean }): void {
    if (state.position !== undefined) this.position = state.position;
    if (state.held !== undefined) this.held = state.held;
  }

  click(point: Point): Promise<void> {
    this.mouse(CGEventType.MouseMoved, point);
    this.mouse(CGEventType.LeftMouseDown, point);
    this.mouse(CGEventType.LeftMouseUp, point);
    return Promise.resolve();
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

  /** Text as Unicode strings on key events (any character, emoji included), in chunks that do not split surrogate pairs. */
  typeText(text: string): Promise<void> {
    for (const chunk of utf16Chunks(text, UNICODE_CHUNK)) {
      for (const down of [true, false]) {
        this.post(this.native.CGEventCreateKeyboardEvent(null, 0, down), (event) => {
          // Without this the event inherits modifiers held right now and "a" becomes Cmd+A.
          this.native.CGEventSetFlags(event, 0n);
          this.native.CGEventKeyboardSetUnicodeString(event, chunk.length, chunk);
        });
      }
    }
    return Promise.resolve();
  }

  pressKey(name: string, modifiers: Modifier[], pid?: number): Promise<void> {
    const stroke = strokeForKeyName(name);
    const code = stroke === undefined ? undefined : MAC_KEY_CODES[stroke.key];
    if (stroke === undefined || code === undefined) return Promise.reject(new Error(`no macOS key code for '${name}'`));
    const held = new Set<Modifier>(modifiers);
    if (stroke.shift) held.add('shift');
    const flags = [...held].reduce((mask, modifier) => mask | MODIFIER_FLAGS[modifier], intrinsicFlags(stroke.key));
    for (const down of [true, false]) {
      this.post(this.native.CGEventCreateKeyboardEvent(null, code, down), (event) => this.native.CGEventSetFlags(event, flags), pid);
    }
    return Promise.resolve();
  }

  /** Line units; wheel1 is vertical (positive = up), wheel2 horizontal (positive = left). */
  scroll(point: Point, direction: ScrollDirection, amount: number): Promise<void> {
    this.mouse(CGEventType.MouseMoved, point);
    const steps = Math.max(1, Math.round(amount));
    const vertical = direction === 'up' ? steps : direction === 'down' ? -steps : 0;
    const horizontal = direction === 'left' ? steps : direction === 'right' ? -steps : 0;
    this.post(this.native.CGEventCreateScrollWheelEvent2(null, SCROLL_UNIT_LINE, 2, vertical, horizontal, 0), (event) =>
      this.native.CGEventSetLocation(event, { x: point.x, y: point.y }),
    );
    return Promise.resolve();
  }

  private mouse(type: number, point: Point): void {
    this.position = point;
    this.post(this.native.CGEventCreateMouseEvent(null, type, { x: point.x, y: point.y }, LEFT_BUTTON), (event) => {
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

  private post(event: Nullable, prepare: (event: Pointer) => void, pid = this.target()): void {
    if (event === null) throw new Error('CGEventCreate returned NULL');
    try {
      prepare(event);
      if (pid === undefined || !this.isAlive(pid)) this.native.CGEventPost(HID_EVENT_TAP, event);
      else this.native.CGEventPostToPid(pid, event);
    } finally {
      this.native.CFRelease(event);
    }
  }
}

export function utf16Chunks(text: string, size: number): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  for (const character of text) {
    const units = [...Array(character.length).keys()].map((index) => character.charCodeAt(index));
    if (current.length + units.length > size) {
      chunks.push(current);
      current = [];
    }
    current.push(...units);
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

import type * as NutJs from '@nut-tree-fork/nut-js';
import type { InputBackend, Modifier, Point, ScrollDirection } from './types';
import { MODIFIER_KEYS, canTypeAll, strokeFor, strokeForKeyName, type KeyStroke } from './keymap';

type Nut = typeof NutJs;

/**
 * How long a click holds the button down. Pressed and released back to back, a GTK 4 check box
 * took the focus but stayed unchecked in 2 of 10 clicks under openbox; held 30 ms, 14 of 14
 * toggled (test/linux/third-party.test.ts at settleMs 0). A person holds a button about 100 ms;
 * xdotool holds it 12 ms.
 */
export const CLICK_HOLD_MS = 30;

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Synthetic input through nut-js (XTest on Linux, CGEvent on macOS). nut-js is imported
 * only here and only after the caller has checked the display, because loading it without
 * one crashes the process. Each keystroke is sent explicitly so shifted symbols come out
 * right, with no delay between keys.
 */
export async function createNutInput(options: { pause?: (ms: number) => Promise<void>; load?: () => Promise<Nut> } = {}): Promise<InputBackend> {
  const { pause = wait, load = () => import('@nut-tree-fork/nut-js') } = options;
  const nut = await load();
  const { mouse, keyboard, Button, Key, Point: NutPoint } = nut;
  keyboard.config.autoDelayMs = 0;
  mouse.config.autoDelayMs = 0;
  mouse.config.mouseSpeed = 100_000;

  const key = (name: string): number => {
    const value = (Key as unknown as Record<string, number>)[name];
    if (value === undefined) throw new Error(`nut-js has no key '${name}'`);
    return value;
  };
  const stroke = async (keystroke: KeyStroke, modifiers: Modifier[] = []): Promise<void> => {
    const held = [...modifiers, ...(keystroke.shift && !modifiers.includes('shift') ? (['shift'] as const) : [])].map((modifier) =>
      key(MODIFIER_KEYS[modifier]),
    );
    // nut-js takes the last key as the key and the rest as its modifiers, for release too:
    // reversing the list would release shift as "the key" and leave the letter held down.
    const keys = [...held, key(keystroke.key)];
    await keyboard.pressKey(...keys);
    await keyboard.releaseKey(...keys);
  };
  const moveTo = (point: Point) => mouse.setPosition(new NutPoint(point.x, point.y));

  return {
    click: async (point) => {
      await moveTo(point);
      await mouse.pressButton(Button.LEFT);
      await pause(CLICK_HOLD_MS);
      await mouse.releaseButton(Button.LEFT);
    },
    moveMouse: async (point) => {
      await moveTo(point);
    },
    mouseDown: async () => {
      await mouse.pressButton(Button.LEFT);
    },
    mouseUp: async () => {
      await mouse.releaseButton(Button.LEFT);
    },
    canType: canTypeAll,
    pointer: async () => {
      const { x, y } = await mouse.getPosition();
      return { x, y };
    },
    typeText: async (text, signal) => {
      for (const character of text) {
        signal?.throwIfAborted();
        const keystroke = strokeFor(character);
        if (keystroke === undefined) throw new Error(`no key types '${character}'`);
        await stroke(keystroke);
      }
    },
    // No pid: nut-js keys go to the window with the keyboard focus (XTest, the HID tap), so
    // the engine sends a key with no element only while its app is frontmost (actions/key-target.ts).
    pressKey: async (name, modifiers) => {
      const keystroke = strokeForKeyName(name);
      if (keystroke === undefined) throw new Error(`no key named '${name}'`);
      await stroke(keystroke, modifiers);
    },
    scroll: async (point: Point, direction: ScrollDirection, amount: number) => {
      await moveTo(point);
      const scrolls = { up: mouse.scrollUp, down: mouse.scrollDown, left: mouse.scrollLeft, right: mouse.scrollRight } as const;
      await scrolls[direction].call(mouse, amount);
    },
  };
}

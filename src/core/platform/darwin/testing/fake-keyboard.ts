import type { Integer, Nullable, Pointer } from '../../../../../native/macos';
import type { FakeHeap } from './fake-cf';
import { GERMAN_KEYBOARD, type FakeWorld } from './fake-world';

/** kUCKeyActionDisplay: what a key shows, without starting a dead-key sequence. */
const KEY_ACTION_DISPLAY = 3;
/** UCKeyTranslate's modifier state is Carbon's modifier bits shifted right by 8: shift is 2. */
const SHIFT_STATE = 2;

/**
 * The text input source and UCKeyTranslate over the world's keyboard: the layout data is a
 * CFData owned by the input source (Get rule), the source itself is a Copy the code releases.
 * The checks are the ones a wrong binding would fail on a Mac: the action, the modifier
 * state, the buffer type and its length.
 */
export class FakeKeyboard {
  constructor(
    private readonly heap: FakeHeap,
    private readonly world: FakeWorld,
    private readonly layoutKey: Pointer,
    private readonly record: (name: string, args: unknown[]) => void,
  ) {}

  copySource(): Pointer {
    this.record('TISCopyCurrentKeyboardLayoutInputSource', []);
    const keyboard = this.world.keyboard === undefined ? GERMAN_KEYBOARD : this.world.keyboard;
    const layoutData = keyboard === null ? null : this.heap.add({ kind: 'data', keyboard });
    return this.heap.add({ kind: 'inputSource', layoutData });
  }

  property(source: Pointer, key: Pointer): Nullable {
    const object = this.heap.get(source);
    if (object.kind !== 'inputSource') throw new Error('TISGetInputSourceProperty on something that is not an input source');
    if (key !== this.layoutKey) throw new Error('only kTISPropertyUnicodeKeyLayoutData is modelled');
    return object.layoutData;
  }

  translate(
    layout: Pointer,
    code: number,
    action: number,
    modifiers: number,
    deadKeyState: [number],
    maxLength: number,
    actualLength: [Integer],
    buffer: Uint16Array,
  ): number {
    const object = this.heap.get(layout);
    if (object.kind !== 'data') throw new Error('UCKeyTranslate on something that is not layout data');
    if (action !== KEY_ACTION_DISPLAY) throw new Error(`UCKeyTranslate with key action ${action}`);
    if (modifiers !== 0 && modifiers !== SHIFT_STATE) throw new Error(`UCKeyTranslate with modifier state ${modifiers}`);
    if (!(buffer instanceof Uint16Array) || maxLength > buffer.length) throw new Error('UCKeyTranslate buffer shorter than maxStringLength');
    deadKeyState[0] = 0;
    const entry = object.keyboard[code];
    const text = entry === undefined ? '' : modifiers === SHIFT_STATE ? entry[1] : entry[0];
    const units = [...Array(text.length).keys()].map((index) => text.charCodeAt(index)).slice(0, maxLength);
    buffer.set(units);
    actualLength[0] = units.length;
    return 0;
  }
}

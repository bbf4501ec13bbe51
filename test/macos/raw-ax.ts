/**
 * The Accessibility API called directly, without the backend: the open questions are about the
 * API itself (what a slot holds, what a timeout survives), so they are asked of it, through the
 * same koffi declarations the backend uses. Everything copied, created or retained here is kept
 * in `owned` and released by dispose().
 */
// The real-Mac suite tests the bindings themselves; only src/core/platform may import native/ otherwise.
// eslint-disable-next-line deskpilot/layers
import { loadMacNative, type MacNative, type Pointer } from '../../native/macos';

export { loadMacNative, type MacNative, type Pointer };

const UTF8 = 0x08000100;
const kCFNumberDoubleType = 13;
export const kAXValueCFRangeType = 4;
export const AX_SUCCESS = 0;

export interface Copied {
  code: number;
  value: Pointer | null;
}

export class RawAx {
  private readonly owned: Pointer[] = [];

  constructor(readonly native: MacNative) {}

  /** Keeps an owned object until dispose(). */
  own(value: Pointer | null): Pointer | null {
    if (value !== null) this.owned.push(value);
    return value;
  }

  dispose(): void {
    for (const value of this.owned.splice(0)) this.native.CFRelease(value);
  }

  string(text: string): Pointer {
    const value = this.own(this.native.CFStringCreateWithCString(null, text, UTF8));
    if (value === null) throw new Error(`CFStringCreateWithCString failed for ${text}`);
    return value;
  }

  app(pid: number): Pointer {
    const value = this.own(this.native.AXUIElementCreateApplication(pid));
    if (value === null) throw new Error(`AXUIElementCreateApplication(${pid}) returned NULL`);
    return value;
  }

  copy(element: Pointer, attribute: string): Copied {
    const slot: [Pointer | null] = [null];
    const code = this.native.AXUIElementCopyAttributeValue(element, this.string(attribute), slot);
    return { code, value: this.own(slot[0]) };
  }

  async copyAsync(element: Pointer, attribute: string): Promise<Copied> {
    const slot: [Pointer | null] = [null];
    const code = await this.native.async.AXUIElementCopyAttributeValue(element, this.string(attribute), slot);
    return { code, value: this.own(slot[0]) };
  }

  set(element: Pointer, attribute: string, value: Pointer): number {
    return this.native.AXUIElementSetAttributeValue(element, this.string(attribute), value);
  }

  typeId(value: Pointer): number {
    return Number(this.native.CFGetTypeID(value));
  }

  isString(value: Pointer | null): value is Pointer {
    return value !== null && this.typeId(value) === Number(this.native.CFStringGetTypeID());
  }

  isArray(value: Pointer | null): value is Pointer {
    return value !== null && this.typeId(value) === Number(this.native.CFArrayGetTypeID());
  }

  text(value: Pointer | null): string | undefined {
    if (!this.isString(value)) return undefined;
    const length = Number(this.native.CFStringGetLength(value));
    const size = Number(this.native.CFStringGetMaximumSizeForEncoding(length, UTF8)) + 1;
    const buffer = new Uint8Array(size);
    if (!this.native.CFStringGetCString(value, buffer, size, UTF8)) return undefined;
    const end = buffer.indexOf(0);
    return Buffer.from(buffer.subarray(0, end === -1 ? size : end)).toString('utf8');
  }

  number(value: Pointer | null): number | undefined {
    if (value === null || this.typeId(value) !== Number(this.native.CFNumberGetTypeID())) return undefined;
    const out: [number] = [0];
    return this.native.CFNumberGetValue(value, kCFNumberDoubleType, out) ? out[0] : undefined;
  }

  /** A string attribute, or undefined when it is missing or not a string. */
  attribute(element: Pointer, attribute: string): string | undefined {
    const { code, value } = this.copy(element, attribute);
    return code === AX_SUCCESS ? this.text(value) : undefined;
  }

  /** The elements of a CFArray, retained so they outlive it. */
  items(array: Pointer | null): Pointer[] {
    if (!this.isArray(array)) return [];
    const count = Number(this.native.CFArrayGetCount(array));
    const items: Pointer[] = [];
    for (let index = 0; index < count; index += 1) {
      const item = this.native.CFArrayGetValueAtIndex(array, index);
      if (item !== null) items.push(this.own(this.native.CFRetain(item)) as Pointer);
    }
    return items;
  }

  children(element: Pointer): Pointer[] {
    const { code, value } = this.copy(element, 'AXChildren');
    return code === AX_SUCCESS ? this.items(value) : [];
  }

  /** Breadth first, up to maxNodes elements: the first that matches. */
  find(root: Pointer, matches: (element: Pointer) => boolean, maxNodes = 3000): Pointer | undefined {
    const queue = [root];
    for (let seen = 0; queue.length > 0 && seen < maxNodes; seen += 1) {
      const element = queue.shift() as Pointer;
      if (matches(element)) return element;
      queue.push(...this.children(element));
    }
    return undefined;
  }

  role(element: Pointer): string | undefined {
    return this.attribute(element, 'AXRole');
  }

  subrole(element: Pointer): string | undefined {
    return this.attribute(element, 'AXSubrole');
  }

  range(location: number, length: number): Pointer {
    const value = this.own(this.native.AXValueCreateRange(kAXValueCFRangeType, { location, length }));
    if (value === null) throw new Error('AXValueCreate(kAXValueCFRangeType) returned NULL');
    return value;
  }

  /** What an AXValue slot holds when a batched read puts an error there, else undefined. */
  slotError(value: Pointer | null): number | undefined {
    if (value === null || this.typeId(value) !== Number(this.native.AXValueGetTypeID())) return undefined;
    const out: [number] = [0];
    return this.native.AXValueGetError(value, 5, out) ? out[0] : undefined;
  }

  /** One keyboard event pair carrying `text` as its Unicode string, posted to a pid. */
  postUnicode(pid: number, text: string, keyCode = 0): void {
    const units = Array.from({ length: text.length }, (_, index) => text.charCodeAt(index));
    for (const down of [true, false]) {
      const event = this.native.CGEventCreateKeyboardEvent(null, keyCode, down);
      if (event === null) throw new Error('CGEventCreateKeyboardEvent returned NULL');
      this.native.CGEventKeyboardSetUnicodeString(event, units.length, units);
      this.native.CGEventPostToPid(pid, event);
      this.native.CFRelease(event);
    }
  }
}

/**
 * Counts the CF objects the backend owns: +1 for every object a Create or Copy function hands
 * over (as its result or through its out-pointer) and for every CFRetain, −1 for every
 * CFRelease. The same rule the fake native module checks on Linux, here over the real one.
 */
export function countingNative(native: MacNative): { native: MacNative; live: () => number } {
  let live = 0;
  const owns = (name: string): boolean => /Create|Copy/.test(name);
  const counted = (name: string, result: unknown, args: unknown[]): void => {
    if (name === 'CFRelease') live -= 1;
    else if (name === 'CFRetain') live += typeof result === 'bigint' ? 1 : 0;
    else if (owns(name)) {
      const slot = args.at(-1);
      if (typeof result === 'bigint') live += 1;
      else if (Array.isArray(slot) && typeof slot[0] === 'bigint') live += 1;
    }
  };
  const wrapped: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(native)) {
    if (typeof value !== 'function') wrapped[name] = value;
    else
      wrapped[name] = (...args: unknown[]): unknown => {
        const result: unknown = (value as (...args: unknown[]) => unknown)(...args);
        counted(name, result, args);
        return result;
      };
  }
  const asyncCalls: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(native.async)) {
    asyncCalls[name] = async (...args: unknown[]): Promise<number> => {
      const code = await (value as (...args: unknown[]) => Promise<number>)(...args);
      counted(name, code, args);
      return code;
    };
  }
  wrapped['async'] = asyncCalls;
  return { native: wrapped as unknown as MacNative, live: () => live };
}

import type { CGPoint, CGSize, MacNative, Pointer } from '../../../../native/macos';

export const kCFStringEncodingUTF8 = 0x08000100;
/** kCFNumberDoubleType: values are read and written as doubles, whatever the app stored. */
export const kCFNumberDoubleType = 13;
export const AXValueType = { CGPoint: 1, CGSize: 2, CGRect: 3, CFRange: 4, AXError: 5 } as const;

/** A CF value turned into JS; arrays and elements stay native (see arrayItems). */
export type JsValue = string | number | boolean | CGPoint | CGSize | { axError: number } | undefined;

/**
 * A boolean attribute's value. Some toolkits answer AXEnabled, AXFocused and the like with a
 * CFNumber 0/1 instead of a CFBoolean (Swift clients never notice: NSNumber bridges to Bool
 * either way); a plain `=== false` test would read a disabled control as enabled.
 */
export function flag(value: JsValue): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  return undefined;
}

/**
 * The Core Foundation rules in one place. Create/Copy results are owned (+1) and released
 * exactly once, through `owned`/`ownedSync`, even when the work throws; Get results are
 * borrowed and live only as long as their container. Attribute and action names are made
 * as CFStrings once per runtime (they are macros, not exported symbols) and released by dispose().
 */
export class CfRuntime {
  private readonly names = new Map<string, Pointer>();
  readonly types: { string: number; number: number; boolean: number; array: number; element: number; axValue: number };

  constructor(readonly native: MacNative) {
    // Type ids are assigned at run time: fetched once, never hard-coded.
    this.types = {
      string: Number(native.CFStringGetTypeID()),
      number: Number(native.CFNumberGetTypeID()),
      boolean: Number(native.CFBooleanGetTypeID()),
      array: Number(native.CFArrayGetTypeID()),
      element: Number(native.AXUIElementGetTypeID()),
      axValue: Number(native.AXValueGetTypeID()),
    };
  }

  /** A long-lived CFString for an attribute or action name. */
  name(text: string): Pointer {
    let string = this.names.get(text);
    if (string === undefined) {
      string = this.createString(text);
      this.names.set(text, string);
    }
    return string;
  }

  createString(text: string): Pointer {
    return this.created(this.native.CFStringCreateWithCString(null, text, kCFStringEncodingUTF8), 'CFStringCreateWithCString');
  }

  createNumber(value: number): Pointer {
    return this.created(this.native.CFNumberCreate(null, kCFNumberDoubleType, [value]), 'CFNumberCreate');
  }

  /** A CFArray that retains its items (kCFTypeArrayCallBacks), so the caller keeps its own references. */
  createArray(values: Pointer[]): Pointer {
    return this.created(this.native.CFArrayCreate(null, values, values.length, this.native.kCFTypeArrayCallBacks), 'CFArrayCreate');
  }

  release(ref: Pointer | null | undefined): void {
    // CFRelease crashes on NULL.
    if (ref !== null && ref !== undefined) this.native.CFRelease(ref);
  }

  /** Runs `work` on an owned reference and releases it afterwards, whatever happens. */
  async owned<T>(ref: Pointer, work: (ref: Pointer) => Promise<T>): Promise<T> {
    try {
      return await work(ref);
    } finally {
      this.release(ref);
    }
  }

  ownedSync<T>(ref: Pointer, work: (ref: Pointer) => T): T {
    try {
      return work(ref);
    } finally {
      this.release(ref);
    }
  }

  typeOf(ref: Pointer): number {
    return Number(this.native.CFGetTypeID(ref));
  }

  /**
   * Borrowed slots of a CFArray by index, null past its end. CFArrayGetValueAtIndex out of
   * range is undefined behaviour (it can crash the host), and a batch answer may hold fewer
   * slots than names were asked for, so every index is checked against CFArrayGetCount first.
   */
  slots(array: Pointer): (index: number) => Pointer | null {
    const count = Number(this.native.CFArrayGetCount(array));
    return (index) => (Number.isInteger(index) && index >= 0 && index < count ? this.native.CFArrayGetValueAtIndex(array, index) : null);
  }

  /** Borrowed items of a CFArray: valid only while the array is. */
  arrayItems(array: Pointer): Pointer[] {
    const count = Number(this.native.CFArrayGetCount(array));
    const items: Pointer[] = [];
    for (let index = 0; index < count; index += 1) {
      const item = this.native.CFArrayGetValueAtIndex(array, index);
      if (item !== null) items.push(item);
    }
    return items;
  }

  readString(string: Pointer): string {
    const fast = this.native.CFStringGetCStringPtr(string, kCFStringEncodingUTF8);
    if (fast !== null) return fast;
    const length = Number(this.native.CFStringGetLength(string));
    const size = Number(this.native.CFStringGetMaximumSizeForEncoding(length, kCFStringEncodingUTF8)) + 1;
    const buffer = new Uint8Array(size);
    if (!this.native.CFStringGetCString(string, buffer, size, kCFStringEncodingUTF8)) return '';
    const end = buffer.indexOf(0);
    return Buffer.from(buffer.subarray(0, end < 0 ? size : end)).toString('utf8');
  }

  /** A borrowed CF value as JS; CFNull, arrays, elements and unknown types become undefined. */
  toJs(ref: Pointer | null): JsValue {
    if (ref === null) return undefined;
    const type = this.typeOf(ref);
    const { native } = this;
    if (type === this.types.string) return this.readString(ref);
    if (type === this.types.boolean) return native.CFBooleanGetValue(ref);
    if (type === this.types.number) {
      const out: [number] = [0];
      native.CFNumberGetValue(ref, kCFNumberDoubleType, out);
      return out[0];
    }
    if (type === this.types.axValue) return this.axValue(ref);
    return undefined;
  }

  private axValue(ref: Pointer): JsValue {
    const kind = this.native.AXValueGetType(ref);
    if (kind === AXValueType.CGPoint) {
      const point: Partial<CGPoint> = {};
      return this.native.AXValueGetPoint(ref, kind, point) ? { x: point.x ?? 0, y: point.y ?? 0 } : undefined;
    }
    if (kind === AXValueType.CGSize) {
      const size: Partial<CGSize> = {};
      return this.native.AXValueGetSize(ref, kind, size) ? { width: size.width ?? 0, height: size.height ?? 0 } : undefined;
    }
    if (kind === AXValueType.AXError) {
      const error: [number] = [0];
      return this.native.AXValueGetError(ref, kind, error) ? { axError: error[0] } : undefined;
    }
    return undefined;
  }

  /** Releases the cached names; the runtime must not be used afterwards. */
  dispose(): void {
    for (const string of this.names.values()) this.release(string);
    this.names.clear();
  }

  private created(ref: Pointer | null, call: string): Pointer {
    if (ref === null) throw new Error(`${call} returned NULL`);
    return ref;
  }
}

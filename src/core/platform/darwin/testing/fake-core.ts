import type { CFRange, CGPoint, Nullable, Pointer } from '../../../../../native/macos';
import { AXError } from '../ax-errors';
import { FakeHeap, TYPE, type FakeObject } from './fake-cf';
import type { AttributeContext, ElementObject } from './fake-attributes';
import type { FakeApp, FakeWorld } from './fake-world';

export interface Call {
  name: string;
  args: unknown[];
  async: boolean;
}

/**
 * The in-process half of the fake MacNative: the reference-counted heap, the call log, and
 * Core Foundation plus the HIServices calls that need no target app. FakeNative adds the
 * cross-process AX calls, CGEvent and the ObjC runtime.
 */
export class FakeCore {
  readonly heap = new FakeHeap();
  readonly calls: Call[] = [];
  /** Every CFString whose text the code read, to prove secure values never are. */
  readonly stringsRead: string[] = [];
  /** Every AXValue text the fake handed over (batch or single copy): what crossed into our process, read or not. */
  readonly valuesServed: string[] = [];
  /** AX calls that ran into the messaging timeout; each moved the fake clock on by it. */
  timeoutsSpent = 0;
  readonly kCFBooleanTrue: Pointer;
  readonly kCFBooleanFalse: Pointer;
  readonly kAXTrustedCheckOptionPrompt: Pointer;
  readonly kCGWindowOwnerPID: Pointer;
  readonly kCGWindowNumber: Pointer;
  readonly kCGWindowLayer: Pointer;
  readonly kCGWindowBounds: Pointer;
  readonly kCGWindowAlpha: Pointer;
  readonly kTISPropertyUnicodeKeyLayoutData: Pointer;
  readonly kCFTypeArrayCallBacks = 0xa11a7n;
  readonly kCFTypeDictionaryKeyCallBacks = 0xd1c7n;
  readonly kCFTypeDictionaryValueCallBacks = 0xd1c8n;
  protected readonly cfNull: Pointer;
  timeoutSeconds: number | undefined;

  constructor(readonly world: FakeWorld) {
    this.kCFBooleanTrue = this.heap.add({ kind: 'boolean', value: true }, true);
    this.kCFBooleanFalse = this.heap.add({ kind: 'boolean', value: false }, true);
    this.kAXTrustedCheckOptionPrompt = this.heap.add({ kind: 'string', text: 'AXTrustedCheckOptionPrompt' }, true);
    this.kCGWindowOwnerPID = this.heap.add({ kind: 'string', text: 'kCGWindowOwnerPID' }, true);
    this.kCGWindowNumber = this.heap.add({ kind: 'string', text: 'kCGWindowNumber' }, true);
    this.kCGWindowLayer = this.heap.add({ kind: 'string', text: 'kCGWindowLayer' }, true);
    this.kCGWindowBounds = this.heap.add({ kind: 'string', text: 'kCGWindowBounds' }, true);
    this.kCGWindowAlpha = this.heap.add({ kind: 'string', text: 'kCGWindowAlpha' }, true);
    this.kTISPropertyUnicodeKeyLayoutData = this.heap.add({ kind: 'string', text: 'TISPropertyUnicodeKeyLayoutData' }, true);
    this.cfNull = this.heap.add({ kind: 'null' }, true);
  }

  /** What the fake still holds alive that the code should have released. */
  leaks(): string[] {
    return this.heap.leaks();
  }

  callsOf(name: string): Call[] {
    return this.calls.filter((call) => call.name === name);
  }

  text(handle: Nullable): string {
    const object = this.heap.get(handle);
    if (object.kind !== 'string') throw new Error(`expected a CFString, got ${object.kind}`);
    return object.text;
  }

  // Core Foundation.
  CFRelease(cf: Pointer): void {
    this.record('CFRelease', [cf]);
    this.heap.release(cf);
  }
  CFRetain(cf: Pointer): Pointer {
    this.record('CFRetain', [cf]);
    return this.heap.retain(cf);
  }
  CFGetTypeID(cf: Pointer): number {
    const kind = this.heap.get(cf).kind;
    return kind === 'dictionary' ? TYPE.dictionary : kind in TYPE ? TYPE[kind as keyof typeof TYPE] : TYPE.other;
  }
  CFStringGetTypeID = (): number => TYPE.string;
  CFNumberGetTypeID = (): number => TYPE.number;
  CFBooleanGetTypeID = (): number => TYPE.boolean;
  CFArrayGetTypeID = (): number => TYPE.array;
  AXUIElementGetTypeID = (): number => TYPE.element;
  AXValueGetTypeID = (): number => TYPE.axValue;
  CFStringCreateWithCString(alloc: null, cString: string, encoding: number): Pointer {
    this.record('CFStringCreateWithCString', [alloc, cString, encoding]);
    return this.heap.add({ kind: 'string', text: cString });
  }
  CFStringGetLength = (string: Pointer): number => this.text(string).length;
  CFStringGetMaximumSizeForEncoding = (length: number): number => length * 6;
  CFStringGetCString(string: Pointer, buffer: Uint8Array, bufferSize: number): boolean {
    this.stringsRead.push(this.text(string));
    const bytes = Buffer.from(this.text(string), 'utf8');
    if (bytes.length + 1 > bufferSize) return false;
    buffer.set(bytes);
    buffer[bytes.length] = 0;
    return true;
  }
  /** NULL for non-ASCII text, as CF may, so the slow path is exercised too. */
  CFStringGetCStringPtr = (string: Pointer): string | null => {
    const text = this.text(string);
    if (!/^[\x20-\x7e]*$/.test(text)) return null;
    this.stringsRead.push(text);
    return text;
  };
  CFArrayGetCount = (array: Pointer): number => this.array(array).length;
  /** Out of range is undefined behaviour in CF (a crash at best): the fake throws, so a missing bounds check fails its test. */
  CFArrayGetValueAtIndex = (array: Pointer, index: number): Nullable => {
    const items = this.array(array);
    if (!Number.isInteger(index) || index < 0 || index >= items.length) throw new Error(`CFArrayGetValueAtIndex(${index}) on a CFArray of ${items.length}`);
    return items[index] ?? null;
  };
  CFArrayCreate(alloc: null, values: Pointer[], count: number, callBacks: Pointer): Pointer {
    this.record('CFArrayCreate', [alloc, values, count, callBacks]);
    if (callBacks !== this.kCFTypeArrayCallBacks) throw new Error('CFArrayCreate without kCFTypeArrayCallBacks would not retain its items');
    return this.heap.add({ kind: 'array', items: values.slice(0, count).map((value) => this.heap.retain(value)) });
  }
  CFDictionaryCreate(alloc: null, keys: Pointer[], values: Pointer[], count: number, keyCallBacks: Pointer, valueCallBacks: Pointer): Pointer {
    this.record('CFDictionaryCreate', [alloc, keys, values, count, keyCallBacks, valueCallBacks]);
    return this.heap.add({ kind: 'dictionary', keys: keys.map((key) => this.heap.retain(key)), values: values.map((value) => this.heap.retain(value)) });
  }
  /** Get rule: the value is borrowed from the dictionary. Keys match by identity or, for strings, by text (CFEqual). */
  CFDictionaryGetValue(dictionary: Pointer, key: Pointer): Nullable {
    const object = this.heap.get(dictionary);
    if (object.kind !== 'dictionary') throw new Error(`expected a CFDictionary, got ${object.kind}`);
    const wanted = this.heap.get(key);
    const index = object.keys.findIndex((candidate) => {
      if (candidate === key) return true;
      const found = this.heap.get(candidate);
      return found.kind === 'string' && wanted.kind === 'string' && found.text === wanted.text;
    });
    return index < 0 ? null : (object.values[index] ?? null);
  }
  CFDataGetBytePtr(data: Pointer): Pointer {
    if (this.heap.get(data).kind !== 'data') throw new Error('not a CFData');
    // The fake's "bytes" are the CFData itself: UCKeyTranslate reads the layout through this pointer.
    return data;
  }
  CFNumberCreate(alloc: null, type: number, value: [number]): Pointer {
    this.record('CFNumberCreate', [alloc, type, value]);
    return this.heap.add({ kind: 'number', value: value[0], type });
  }
  CFNumberGetValue(number: Pointer, type: number, value: [number]): boolean {
    const object = this.heap.get(number);
    if (object.kind !== 'number') throw new Error('not a CFNumber');
    // The binding's out parameter is a double: any other CFNumberType would write the wrong width.
    if (type !== 6 && type !== 13) throw new Error(`CFNumberGetValue with type ${type} into a double`);
    value[0] = object.value;
    return true;
  }
  CFBooleanGetValue(boolean: Pointer): boolean {
    const object = this.heap.get(boolean);
    if (object.kind !== 'boolean') throw new Error('not a CFBoolean');
    return object.value;
  }

  // HIServices, synchronous.
  AXIsProcessTrusted(): boolean {
    this.record('AXIsProcessTrusted', []);
    return this.world.trusted;
  }
  AXIsProcessTrustedWithOptions(options: Pointer): boolean {
    this.record('AXIsProcessTrustedWithOptions', [options]);
    return this.world.trusted;
  }
  AXUIElementCreateApplication(pid: number): Pointer {
    this.record('AXUIElementCreateApplication', [pid]);
    return this.element(pid, this.app(pid) ?? null);
  }
  AXUIElementCreateSystemWide(): Pointer {
    this.record('AXUIElementCreateSystemWide', []);
    return this.heap.add({ kind: 'element', pid: 0, node: null, systemWide: true });
  }
  AXUIElementSetMessagingTimeout(element: Pointer, timeoutInSeconds: number): number {
    this.record('AXUIElementSetMessagingTimeout', [element, timeoutInSeconds]);
    if ((this.heap.get(element) as ElementObject).systemWide) this.timeoutSeconds = timeoutInSeconds;
    return AXError.Success;
  }
  AXValueGetType = (value: Pointer): number => this.axValue(value).type;
  AXValueGetPoint(value: Pointer, type: number, point: Partial<CGPoint>): boolean {
    this.checkAxValueType(value, type, 1);
    Object.assign(point, this.axValue(value).point);
    return this.axValue(value).point !== undefined;
  }
  AXValueGetSize(value: Pointer, type: number, size: Partial<{ width: number; height: number }>): boolean {
    this.checkAxValueType(value, type, 2);
    Object.assign(size, this.axValue(value).size);
    return this.axValue(value).size !== undefined;
  }
  AXValueGetError(value: Pointer, type: number, error: [number]): boolean {
    this.checkAxValueType(value, type, 5);
    error[0] = this.axValue(value).error ?? 0;
    return true;
  }
  AXValueCreateRange(type: number, range: CFRange): Pointer {
    this.record('AXValueCreateRange', [type, range]);
    return this.heap.add({ kind: 'axValue', type, range });
  }

  protected fakeContext(): AttributeContext {
    return {
      heap: this.heap,
      world: this.world,
      element: (pid, node) => this.element(pid, node),
      booleans: [this.kCFBooleanTrue, this.kCFBooleanFalse],
      served: (text) => this.valuesServed.push(text),
    };
  }

  protected record(name: string, args: unknown[], viaAsync = false): void {
    this.calls.push({ name, args, async: viaAsync });
  }

  protected app(pid: number): FakeApp | undefined {
    return this.world.apps.find((app) => app.pid === pid);
  }

  protected element(pid: number, node: unknown): Pointer {
    return this.heap.add({ kind: 'element', pid, node });
  }

  protected failure(target: ElementObject): number | undefined {
    if (!this.world.granted) return AXError.APIDisabled;
    const app = this.app(target.pid);
    if (app === undefined || app.dead === true || app.noAccessibility === true) return AXError.CannotComplete;
    if (app.hung === true) return this.timedOut();
    return undefined;
  }

  /** A call the app did not answer: it costs the whole messaging timeout (the system default, about 6 s, when none was set). */
  protected timedOut(): number {
    this.timeoutsSpent += 1;
    this.world.clockMs = (this.world.clockMs ?? 0) + (this.timeoutSeconds ?? 6) * 1000;
    return AXError.CannotComplete;
  }

  protected array(handle: Pointer): Pointer[] {
    const object = this.heap.get(handle);
    if (object.kind !== 'array') throw new Error(`expected a CFArray, got ${object.kind}`);
    return object.items;
  }

  /** Each AXValueGetValue binding writes one struct shape: the type must match it and the value. */
  protected checkAxValueType(value: Pointer, type: number, shape: number): void {
    const actual = this.axValue(value).type;
    if (type !== shape || type !== actual) throw new Error(`AXValueGetValue with type ${type} on an AXValue of type ${actual} into a type-${shape} struct`);
  }

  protected axValue(handle: Pointer): Extract<FakeObject, { kind: 'axValue' }> {
    const object = this.heap.get(handle);
    if (object.kind !== 'axValue') throw new Error('not an AXValue');
    return object;
  }
}

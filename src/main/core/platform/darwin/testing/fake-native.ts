import type { AxIpc, AxIpcAsync, CFRange, CGPoint, MacNative, Nullable, OutSlot, Pointer } from '../../../../../../native/macos';
import { AXError } from '../ax-errors';
import { FakeHeap, TYPE, type FakeObject } from './fake-cf';
import { FakeCg } from './fake-cg';
import { batchSlots, childNodes, readAttribute, type AttributeContext, type ElementObject } from './fake-attributes';
import type { FakeApp, FakeNode, FakeWorld } from './fake-world';
import { FakeObjc } from './fake-objc';

export interface Call {
  name: string;
  args: unknown[];
  async: boolean;
}


/**
 * MacNative over a scripted world. Records every call (name, arguments, async or not) and
 * keeps a reference-counted heap, so tests can assert exact FFI sequences, argument types
 * and that releases balance creates and copies.
 */
export class FakeNative implements Omit<MacNative, 'async'> {
  readonly heap = new FakeHeap();
  readonly calls: Call[] = [];
  /** Every CFString whose text the code read, to prove secure values never are. */
  readonly stringsRead: string[] = [];
  readonly objc: FakeObjc;
  readonly cg: FakeCg;
  readonly async: AxIpcAsync;
  readonly kCFBooleanTrue: Pointer;
  readonly kCFBooleanFalse: Pointer;
  readonly kAXTrustedCheckOptionPrompt: Pointer;
  readonly kCFTypeArrayCallBacks = 0xa11a7n;
  readonly kCFTypeDictionaryKeyCallBacks = 0xd1c7n;
  readonly kCFTypeDictionaryValueCallBacks = 0xd1c8n;
  private readonly cfNull: Pointer;
  timeoutSeconds: number | undefined;

  constructor(readonly world: FakeWorld) {
    this.kCFBooleanTrue = this.heap.add({ kind: 'boolean', value: true }, true);
    this.kCFBooleanFalse = this.heap.add({ kind: 'boolean', value: false }, true);
    this.kAXTrustedCheckOptionPrompt = this.heap.add({ kind: 'string', text: 'AXTrustedCheckOptionPrompt' }, true);
    this.cfNull = this.heap.add({ kind: 'null' }, true);
    this.objc = new FakeObjc(world, (name, args) => this.record(name, args, false));
    this.cg = new FakeCg(this.heap, (name, args) => this.record(name, args, false));
    const ipc = ['AXUIElementCopyAttributeValue', 'AXUIElementCopyMultipleAttributeValues', 'AXUIElementGetAttributeValueCount', 'AXUIElementCopyAttributeValues', 'AXUIElementCopyActionNames', 'AXUIElementPerformAction', 'AXUIElementSetAttributeValue', 'AXUIElementIsAttributeSettable', 'AXUIElementGetPid'] as const;
    const asyncCalls: Record<string, unknown> = {};
    for (const name of ipc) {
      asyncCalls[name] = async (...args: unknown[]) => {
        await Promise.resolve();
        return (this[name] as (...args: unknown[]) => number).apply(this, [...args, true]);
      };
    }
    this.async = asyncCalls as AxIpcAsync;
  }

  get posted() {
    return this.cg.posted;
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
  CFArrayGetValueAtIndex = (array: Pointer, index: number): Nullable => this.array(array)[index] ?? null;
  CFArrayCreate(alloc: null, values: Pointer[], count: number, callBacks: Pointer): Pointer {
    this.record('CFArrayCreate', [alloc, values, count, callBacks]);
    if (callBacks !== this.kCFTypeArrayCallBacks) throw new Error('CFArrayCreate without kCFTypeArrayCallBacks would not retain its items');
    return this.heap.add({ kind: 'array', items: values.slice(0, count).map((value) => this.heap.retain(value)) });
  }
  CFDictionaryCreate(alloc: null, keys: Pointer[], values: Pointer[], count: number, keyCallBacks: Pointer, valueCallBacks: Pointer): Pointer {
    this.record('CFDictionaryCreate', [alloc, keys, values, count, keyCallBacks, valueCallBacks]);
    return this.heap.add({ kind: 'dictionary', keys: keys.map((key) => this.heap.retain(key)), values: values.map((value) => this.heap.retain(value)) });
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
  AXUIElementCopyElementAtPosition(): number {
    return AXError.Failure;
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

  // HIServices IPC: the trailing flag says whether the async variant ran.
  AXUIElementCopyAttributeValue(element: Pointer, attribute: Pointer, value: OutSlot<Pointer>, viaAsync = false): number {
    const name = this.text(attribute);
    this.record('AXUIElementCopyAttributeValue', [element, name], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    if (target.systemWide) {
      if (name !== 'AXFocusedApplication') return AXError.AttributeUnsupported;
      if (!this.world.granted) return AXError.APIDisabled;
      if (this.world.focusedPid === undefined) return AXError.NoValue;
      value[0] = this.element(this.world.focusedPid, this.app(this.world.focusedPid) ?? null);
      return AXError.Success;
    }
    const failure = this.failure(target) ?? (target.node as FakeNode | null)?.readErrors?.[name];
    if (failure !== undefined) return failure;
    const made = readAttribute(this.fakeContext(), target, name);
    if (typeof made === 'number') return made;
    value[0] = made;
    return AXError.Success;
  }
  AXUIElementCopyMultipleAttributeValues(element: Pointer, attributes: Pointer, options: number, values: OutSlot<Pointer>, viaAsync = false): number {
    const names = this.array(attributes).map((name) => this.text(name));
    this.record('AXUIElementCopyMultipleAttributeValues', [element, names, options], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const slots = batchSlots(this.fakeContext(), target, names, this.cfNull);
    if (typeof slots === 'number') return slots;
    values[0] = this.heap.add({ kind: 'array', items: slots });
    return AXError.Success;
  }
  AXUIElementGetAttributeValueCount(element: Pointer, attribute: Pointer, count: OutSlot<number | bigint>, viaAsync = false): number {
    this.record('AXUIElementGetAttributeValueCount', [element, this.text(attribute)], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    count[0] = childNodes(this.world, target, this.text(attribute)).length;
    return AXError.Success;
  }
  AXUIElementCopyAttributeValues(element: Pointer, attribute: Pointer, index: number, maxValues: number, values: OutSlot<Pointer>, viaAsync = false): number {
    this.record('AXUIElementCopyAttributeValues', [element, this.text(attribute), index, maxValues], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const nodes = childNodes(this.world, target, this.text(attribute)).slice(index, index + maxValues);
    values[0] = this.heap.add({ kind: 'array', items: nodes.map((node) => this.element(target.pid, node)) });
    return AXError.Success;
  }
  AXUIElementCopyActionNames(element: Pointer, names: OutSlot<Pointer>, viaAsync = false): number {
    this.record('AXUIElementCopyActionNames', [element], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const actions = (target.node as FakeNode).actions ?? [];
    names[0] = this.heap.add({ kind: 'array', items: actions.map((action) => this.heap.add({ kind: 'string', text: action })) });
    return AXError.Success;
  }
  AXUIElementPerformAction(element: Pointer, action: Pointer, viaAsync = false): number {
    const name = this.text(action);
    this.record('AXUIElementPerformAction', [element, name], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const node = target.node as FakeNode;
    if (!(node.actions ?? []).includes(name)) return AXError.ActionUnsupported;
    (node.log ??= []).push(`perform ${name}`);
    return node.performResult?.[name] ?? AXError.Success;
  }
  AXUIElementSetAttributeValue(element: Pointer, attribute: Pointer, value: Pointer, viaAsync = false): number {
    const name = this.text(attribute);
    const object = this.heap.get(value);
    this.record('AXUIElementSetAttributeValue', [element, name, object], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const app = this.app(target.pid) as FakeApp;
    if (target.node === app) {
      (app.appSets ??= []).push(name);
      if (app.electron !== undefined && name === (app.electron.switch ?? 'AXManualAccessibility')) return app.electron.setCode ?? AXError.Success;
      return AXError.AttributeUnsupported;
    }
    const node = target.node as FakeNode;
    const result = node.setResult?.[name];
    if (result !== undefined) return result;
    if (!(node.settable ?? []).includes(name)) return AXError.AttributeUnsupported;
    (node.log ??= []).push(`set ${name}`);
    if (name === 'AXValue' && (object.kind === 'string' || object.kind === 'number')) node.value = object.kind === 'string' ? object.text : object.value;
    if (name === 'AXFocused' && object.kind === 'boolean') node.focused = object.value;
    return AXError.Success;
  }
  AXUIElementIsAttributeSettable(element: Pointer, attribute: Pointer, settable: OutSlot<boolean>, viaAsync = false): number {
    this.record('AXUIElementIsAttributeSettable', [element, this.text(attribute)], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    settable[0] = ((target.node as FakeNode).settable ?? []).includes(this.text(attribute));
    return AXError.Success;
  }
  AXUIElementGetPid(element: Pointer, pid: OutSlot<number>, viaAsync = false): number {
    this.record('AXUIElementGetPid', [element], viaAsync);
    pid[0] = (this.heap.get(element) as ElementObject).pid;
    return AXError.Success;
  }

  // CoreGraphics, through a recorder that keeps what was posted.
  CGEventCreate = (source: null): Pointer => this.cg.create(source);
  CGEventGetLocation = (event: Pointer): CGPoint => this.cg.location(event);
  CGEventCreateMouseEvent = (source: null, type: number, position: CGPoint, button: number): Pointer => this.cg.mouse(source, type, position, button);
  CGEventCreateKeyboardEvent = (source: null, virtualKey: number, keyDown: boolean): Pointer => this.cg.keyboard(source, virtualKey, keyDown);
  CGEventCreateScrollWheelEvent2 = (source: null, units: number, count: number, wheel1: number, wheel2: number, wheel3: number): Pointer =>
    this.cg.scroll(source, units, count, wheel1, wheel2, wheel3);
  CGEventKeyboardSetUnicodeString = (event: Pointer, length: number, utf16: number[]): void => this.cg.unicode(event, length, utf16);
  CGEventSetFlags = (event: Pointer, flags: bigint): void => this.cg.flags(event, flags);
  CGEventSetIntegerValueField = (event: Pointer, field: number, value: number): void => this.cg.field(event, field, value);
  CGEventSetLocation = (event: Pointer, location: CGPoint): void => this.cg.setLocation(event, location);
  CGEventPostToPid = (pid: number, event: Pointer): void => this.cg.post({ pid }, event);
  CGEventPost = (tap: number, event: Pointer): void => this.cg.post({ tap }, event);

  // Objective-C runtime.
  objc_getClass = (name: string): Nullable => this.objc.getClass(name);
  sel_registerName = (name: string): Pointer => this.objc.selector(name);
  objc_autoreleasePoolPush = (): Pointer => this.objc.push();
  objc_autoreleasePoolPop = (pool: Pointer): void => this.objc.pop(pool);
  msgSendId = (self: Pointer, op: Pointer): Nullable => this.objc.send(self, op, 'id') as Nullable;
  msgSendIdIndex = (self: Pointer, op: Pointer, index: number): Nullable => this.objc.send(self, op, 'id', index) as Nullable;
  msgSendLong = (self: Pointer, op: Pointer): number => this.objc.send(self, op, 'long') as number;
  msgSendInt32 = (self: Pointer, op: Pointer): number => this.objc.send(self, op, 'int32') as number;
  msgSendCString = (self: Pointer, op: Pointer): string | null => this.objc.send(self, op, 'cstring') as string | null;

  private fakeContext(): AttributeContext {
    return { heap: this.heap, world: this.world, element: (pid, node) => this.element(pid, node), booleans: [this.kCFBooleanTrue, this.kCFBooleanFalse] };
  }

  private record(name: string, args: unknown[], viaAsync = false): void {
    this.calls.push({ name, args, async: viaAsync });
  }

  private app(pid: number): FakeApp | undefined {
    return this.world.apps.find((app) => app.pid === pid);
  }

  private element(pid: number, node: unknown): Pointer {
    return this.heap.add({ kind: 'element', pid, node });
  }

  private failure(target: ElementObject): number | undefined {
    if (!this.world.granted) return AXError.APIDisabled;
    const app = this.app(target.pid);
    if (app === undefined || app.dead || app.hung) return AXError.CannotComplete;
    return undefined;
  }

  private array(handle: Pointer): Pointer[] {
    const object = this.heap.get(handle);
    if (object.kind !== 'array') throw new Error(`expected a CFArray, got ${object.kind}`);
    return object.items;
  }

  /** Each AXValueGetValue binding writes one struct shape: the type must match it and the value. */
  private checkAxValueType(value: Pointer, type: number, shape: number): void {
    const actual = this.axValue(value).type;
    if (type !== shape || type !== actual) throw new Error(`AXValueGetValue with type ${type} on an AXValue of type ${actual} into a type-${shape} struct`);
  }

  private axValue(handle: Pointer): Extract<FakeObject, { kind: 'axValue' }> {
    const object = this.heap.get(handle);
    if (object.kind !== 'axValue') throw new Error('not an AXValue');
    return object;
  }
}

/** The fake as the MacNative the platform code takes. */
export function asNative(fake: FakeNative): MacNative {
  return fake as unknown as MacNative;
}

export type { AxIpc };

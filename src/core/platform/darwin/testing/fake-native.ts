import type { AxIpc, AxIpcAsync, CGPoint, CGRect, EventTapHandler, Integer, MacNative, Nullable, OutSlot, Pointer } from '../../../../../native/macos';
import { AXError } from '../ax-errors';
import { FakeCg } from './fake-cg';
import { FakeCore } from './fake-core';
import { FakeKeyboard } from './fake-keyboard';
import { batchSlots, childNodes, readAttribute, type ElementObject } from './fake-attributes';
import { contentShows, type FakeApp, type FakeNode, type FakeWorld } from './fake-world';
import { FakeObjc } from './fake-objc';
import { FakeTaps } from './fake-tap';
import { FakeWindowServer } from './fake-window-server';

export type { Call } from './fake-core';

/**
 * MacNative over a scripted world. Records every call (name, arguments, async or not) and
 * keeps a reference-counted heap, so tests can assert exact FFI sequences, argument types
 * and that releases balance creates and copies.
 */
export class FakeNative extends FakeCore implements Omit<MacNative, 'async'> {
  readonly objc: FakeObjc;
  readonly cg: FakeCg;
  readonly keyboard: FakeKeyboard;
  readonly windowServer: FakeWindowServer;
  readonly taps: FakeTaps;
  readonly async: AxIpcAsync;

  constructor(world: FakeWorld) {
    super(world);
    this.objc = new FakeObjc(world, (name, args) => this.record(name, args, false));
    this.cg = new FakeCg(this.heap, (name, args) => this.record(name, args, false));
    this.windowServer = new FakeWindowServer(
      this.heap,
      world,
      { owner: this.kCGWindowOwnerPID, number: this.kCGWindowNumber, layer: this.kCGWindowLayer, bounds: this.kCGWindowBounds, alpha: this.kCGWindowAlpha },
      (name, args) => this.record(name, args, false),
    );
    this.taps = new FakeTaps(
      this.heap,
      (name, args) => this.record(name, args, false),
      (handle) => this.text(handle),
    );
    this.keyboard = new FakeKeyboard(this.heap, world, this.kTISPropertyUnicodeKeyLayoutData, (name, args) => this.record(name, args, false));
    const ipc = [
      'AXUIElementCopyAttributeValue',
      'AXUIElementCopyMultipleAttributeValues',
      'AXUIElementGetAttributeValueCount',
      'AXUIElementCopyAttributeValues',
      'AXUIElementCopyActionNames',
      'AXUIElementPerformAction',
      'AXUIElementSetAttributeValue',
      'AXUIElementIsAttributeSettable',
      'AXUIElementGetPid',
      'AXUIElementCopyElementAtPosition',
    ] as const;
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

  get delivered() {
    return this.cg.delivered;
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
    if (name === 'AXChildren' && (target.node as FakeNode).slowChildren === true) return this.timedOut();
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
    const node = target.node as FakeNode;
    // A list too slow to send whole takes the batch that asks for it down with it, after the whole timeout.
    if (names.includes('AXChildren') && node.slowChildren === true) return this.timedOut();
    if (node.batchError === AXError.CannotComplete && (node.batchErrorAlways === true || names.includes('AXChildren'))) return this.timedOut();
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
    if ((target.node as FakeNode).childrenUnsupported === true) return AXError.AttributeUnsupported;
    count[0] = childNodes(this.world, target, this.text(attribute)).length;
    return AXError.Success;
  }
  AXUIElementCopyAttributeValues(element: Pointer, attribute: Pointer, index: number, maxValues: number, values: OutSlot<Pointer>, viaAsync = false): number {
    this.record('AXUIElementCopyAttributeValues', [element, this.text(attribute), index, maxValues], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const all = childNodes(this.world, target, this.text(attribute));
    // AXUIElement.h: an index past the values is an illegal argument.
    if (index < 0 || maxValues < 0 || (index > 0 && index >= all.length)) return AXError.IllegalArgument;
    const nodes = all.slice(index, index + maxValues);
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
    // Every AppKit window answers AXRaise.
    const actions = node.role === 'AXWindow' ? [...(node.actions ?? []), 'AXRaise'] : (node.actions ?? []);
    if (!actions.includes(name)) return AXError.ActionUnsupported;
    (node.log ??= []).push(`perform ${name}`);
    const result = node.performResult?.[name] ?? AXError.Success;
    // AXWindows follows the stacking order: a raised window comes first.
    const app = this.app(target.pid);
    if (name === 'AXRaise' && result === AXError.Success && app !== undefined && app.windows.includes(node)) {
      app.windows.splice(app.windows.indexOf(node), 1);
      app.windows.unshift(node);
    }
    return result;
  }
  AXUIElementSetAttributeValue(element: Pointer, attribute: Pointer, value: Pointer, viaAsync = false): number {
    const name = this.text(attribute);
    const object = this.heap.get(value);
    this.record('AXUIElementSetAttributeValue', [element, name, object], viaAsync);
    const target = this.heap.get(element) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const app = this.app(target.pid) as FakeApp;
    if (target.node === app) return this.setOnApp(app, name, object);
    const node = target.node as FakeNode;
    // Every AppKit window answers AXMain (NSAccessibilityMainAttribute).
    if (node.role === 'AXWindow' && name === 'AXMain' && object.kind === 'boolean') {
      (node.log ??= []).push(`set AXMain ${String(object.value)}`);
      return AXError.Success;
    }
    const result = node.setResult?.[name];
    if (result !== undefined) return result;
    if (!(node.settable ?? []).includes(name)) return AXError.AttributeUnsupported;
    (node.log ??= []).push(`set ${name}`);
    if (name === 'AXValue' && (object.kind === 'string' || object.kind === 'number')) node.value = object.kind === 'string' ? object.text : object.value;
    if (name === 'AXSelectedTextRange' && object.kind === 'axValue' && object.range !== undefined) node.selection = { ...object.range };
    if (name === 'AXSelectedText' && object.kind === 'string' && node.ignoresSelectedText !== true) {
      // Replaces the selection (inserts at the caret when it is empty) and leaves the caret after the text, as NSTextView does.
      const text = typeof node.value === 'string' ? node.value : '';
      const { location, length } = node.selection ?? { location: text.length, length: 0 };
      node.value = text.slice(0, location) + object.text + text.slice(location + length);
      node.selection = { location: location + object.text.length, length: 0 };
    }
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

  /** The deepest element of the app whose frame holds the point, front window first, as AX hit-testing answers. */
  AXUIElementCopyElementAtPosition(application: Pointer, x: number, y: number, element: OutSlot<Pointer>, viaAsync = false): number {
    this.record('AXUIElementCopyElementAtPosition', [application, x, y], viaAsync);
    const target = this.heap.get(application) as ElementObject;
    const failure = this.failure(target);
    if (failure !== undefined) return failure;
    const holds = (node: FakeNode): boolean =>
      node.position !== undefined &&
      node.size !== undefined &&
      x >= node.position.x &&
      y >= node.position.y &&
      x < node.position.x + node.size.width &&
      y < node.position.y + node.size.height;
    let found: FakeNode | undefined;
    let level = (this.app(target.pid) as FakeApp).windows.filter(holds).slice(0, 1);
    for (let depth = 0; level.length > 0 && depth < 64; depth += 1) {
      found = level[0] as FakeNode;
      level = (found.children ?? []).filter(holds).slice(-1);
    }
    if (found === undefined) return AXError.NoValue;
    element[0] = this.element(target.pid, found);
    return AXError.Success;
  }

  /** Attributes of the app element: AXFrontmost, and the Electron/Chromium switches with their timing. */
  private setOnApp(app: FakeApp, name: string, object: ReturnType<FakeNative['heap']['get']>): number {
    const on = object.kind === 'boolean' && object.value;
    (app.appSets ??= []).push(on ? name : `${name}=false`);
    if (name === 'AXFrontmost' && on) {
      if (app.refusesFront === true) return AXError.CannotComplete;
      if (app.refusesFront === 'silently') return AXError.Success;
      this.world.focusedPid = app.pid;
      return AXError.Success;
    }
    const electron = app.electron;
    if (electron === undefined || name !== (electron.switch ?? 'AXManualAccessibility')) return AXError.AttributeUnsupported;
    const now = this.world.clockMs ?? 0;
    if (on && now >= (electron.shownAtMs ?? 0)) {
      // Set again while the content shows: that attaches the rest (cua#3783); otherwise Electron's wait starts over.
      if (contentShows(electron, now) && electron.readsBeforeTree <= 0) electron.reasserted = true;
      else electron.tookAt = now;
    }
    return electron.setCode ?? AXError.Success;
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
  /** The WindowServer's list (always current), the bounds in it, and the Screen Recording grant. */
  CGWindowListCopyWindowInfo = (option: number, relativeToWindow: number): Pointer => this.windowServer.copyWindowInfo(option, relativeToWindow);
  CGRectMakeWithDictionaryRepresentation = (dict: Pointer, rect: Partial<CGRect>): boolean => this.windowServer.rectFromDictionary(dict, rect);
  CGPreflightScreenCaptureAccess = (): boolean => this.windowServer.preflight();
  CGRequestScreenCaptureAccess = (): boolean => this.windowServer.request();

  // The recorder's event tap and the run loop it is pumped from.
  CGPreflightListenEventAccess = (): boolean => this.taps.preflight();
  CGRequestListenEventAccess = (): boolean => this.taps.request();
  CGEventTapCreate = (tap: number, place: number, options: number, mask: bigint, callback: Pointer, userInfo: null): Nullable =>
    this.taps.create(tap, place, options, mask, callback, userInfo);
  CGEventTapEnable = (tap: Pointer, enable: boolean): void => this.taps.enable(tap, enable);
  CGEventGetIntegerValueField = (event: Pointer, field: number): Integer => this.taps.integerField(event, field);
  CGEventGetFlags = (event: Pointer): Integer => this.taps.flags(event);
  CGEventKeyboardGetUnicodeString = (event: Pointer, max: number, actual: [Integer], buffer: Uint16Array): void =>
    this.taps.unicode(event, max, actual, buffer);
  CFMachPortCreateRunLoopSource = (alloc: null, port: Pointer, order: number): Nullable => this.taps.createSource(alloc, port, order);
  CFMachPortInvalidate = (port: Pointer): void => this.taps.invalidate(port);
  CFRunLoopGetCurrent = (): Pointer => this.taps.current();
  CFRunLoopAddSource = (runLoop: Pointer, source: Pointer, mode: Pointer): void => this.taps.addSource(runLoop, source, mode);
  CFRunLoopRemoveSource = (runLoop: Pointer, source: Pointer, mode: Pointer): void => this.taps.removeSource(runLoop, source, mode);
  CFRunLoopRunInMode = (mode: Pointer, seconds: number, returnAfterSourceHandled: boolean): number => this.taps.run(mode, seconds, returnAfterSourceHandled);
  registerEventTapCallback = (handler: EventTapHandler): Pointer => this.taps.register(handler);
  unregisterCallback = (callback: Pointer): void => this.taps.unregister(callback);

  // The keyboard layout.
  TISCopyCurrentKeyboardLayoutInputSource = (): Pointer => {
    // dispatch_assert_queue in HIToolbox: off the main thread this is a crash on macOS 26+.
    if (this.world.offMainThread === true) throw new Error('TIS called off the main thread');
    return this.keyboard.copySource();
  };
  TISGetInputSourceProperty = (source: Pointer, key: Pointer): Nullable => this.keyboard.property(source, key);
  LMGetKbdType = (): number => 40;
  pthread_main_np = (): number => (this.world.offMainThread === true ? 0 : 1);
  UCKeyTranslate = (
    layout: Pointer,
    code: number,
    action: number,
    modifiers: number,
    _keyboardType: number,
    _options: number,
    deadKeyState: [number],
    maxLength: number,
    actualLength: [Integer],
    buffer: Uint16Array,
  ): number => this.keyboard.translate(layout, code, action, modifiers, deadKeyState, maxLength, actualLength, buffer);

  // Objective-C runtime.
  objc_getClass = (name: string): Nullable => this.objc.getClass(name);
  sel_registerName = (name: string): Pointer => this.objc.selector(name);
  objc_autoreleasePoolPush = (): Pointer => this.objc.push();
  objc_autoreleasePoolPop = (pool: Pointer): void => this.objc.pop(pool);
  msgSendId = (self: Pointer, op: Pointer): Nullable => this.objc.send(self, op, 'id') as Nullable;
  msgSendIdIndex = (self: Pointer, op: Pointer, index: number): Nullable => this.objc.send(self, op, 'id', index) as Nullable;
  msgSendIdPid = (self: Pointer, op: Pointer, pid: number): Nullable => this.objc.send(self, op, 'id', pid) as Nullable;
  msgSendLong = (self: Pointer, op: Pointer): number => this.objc.send(self, op, 'long') as number;
  msgSendInt32 = (self: Pointer, op: Pointer): number => this.objc.send(self, op, 'int32') as number;
  msgSendCString = (self: Pointer, op: Pointer): string | null => this.objc.send(self, op, 'cstring') as string | null;
}

/** The fake as the MacNative the platform code takes. */
export function asNative(fake: FakeNative): MacNative {
  return fake as unknown as MacNative;
}

export type { AxIpc };

/**
 * The typed face of the loaded libraries. koffi 3 passes pointers as BigInt and NULL as
 * null; `_Out_` parameters are one-element arrays (or an object for a struct) that the call fills.
 */
export type Pointer = bigint;
export type Nullable = Pointer | null;
export type OutSlot<T> = [T | null];

export interface CGPoint {
  x: number;
  y: number;
}

export interface CGSize {
  width: number;
  height: number;
}

export interface CGRect {
  origin: CGPoint;
  size: CGSize;
}

export interface CFRange {
  location: number;
  length: number;
}

/** A koffi integer that may come back as number or, past 2^53, BigInt. */
export type Integer = number | bigint;

/** The AX calls that cross into another process: each returns an AXError. */
export interface AxIpc {
  AXUIElementCopyAttributeValue(element: Pointer, attribute: Pointer, value: OutSlot<Pointer>): number;
  AXUIElementCopyMultipleAttributeValues(element: Pointer, attributes: Pointer, options: number, values: OutSlot<Pointer>): number;
  AXUIElementGetAttributeValueCount(element: Pointer, attribute: Pointer, count: OutSlot<Integer>): number;
  AXUIElementCopyAttributeValues(element: Pointer, attribute: Pointer, index: number, maxValues: number, values: OutSlot<Pointer>): number;
  AXUIElementCopyActionNames(element: Pointer, names: OutSlot<Pointer>): number;
  AXUIElementPerformAction(element: Pointer, action: Pointer): number;
  AXUIElementSetAttributeValue(element: Pointer, attribute: Pointer, value: Pointer): number;
  AXUIElementIsAttributeSettable(element: Pointer, attribute: Pointer, settable: OutSlot<boolean>): number;
  AXUIElementGetPid(element: Pointer, pid: OutSlot<number>): number;
  AXUIElementCopyElementAtPosition(application: Pointer, x: number, y: number, element: OutSlot<Pointer>): number;
}

/** CGEventTapCallBack as JS sees it: pointers are BigInt; the return is the event passed in (a listen-only tap ignores it). */
export type EventTapHandler = (proxy: Pointer | null, type: number, event: Pointer | null, userInfo: Pointer | null) => Pointer | null;

/** The same calls run on koffi's worker threads. */
export type AxIpcAsync = { [Name in keyof AxIpc]: (...args: Parameters<AxIpc[Name]>) => Promise<number> };

export interface MacNative extends AxIpc {
  async: AxIpcAsync;

  CFRelease(cf: Pointer): void;
  CFRetain(cf: Pointer): Pointer;
  CFGetTypeID(cf: Pointer): Integer;
  CFStringGetTypeID(): Integer;
  CFNumberGetTypeID(): Integer;
  CFBooleanGetTypeID(): Integer;
  CFArrayGetTypeID(): Integer;
  CFStringCreateWithCString(alloc: null, cString: string, encoding: number): Nullable;
  CFStringGetLength(string: Pointer): Integer;
  CFStringGetMaximumSizeForEncoding(length: number, encoding: number): Integer;
  CFStringGetCString(string: Pointer, buffer: Uint8Array, bufferSize: number, encoding: number): boolean;
  CFStringGetCStringPtr(string: Pointer, encoding: number): string | null;
  CFArrayGetCount(array: Pointer): Integer;
  CFArrayGetValueAtIndex(array: Pointer, index: number): Nullable;
  CFArrayCreate(alloc: null, values: Pointer[], count: number, callBacks: Pointer): Nullable;
  CFDictionaryCreate(alloc: null, keys: Pointer[], values: Pointer[], count: number, keyCallBacks: Pointer, valueCallBacks: Pointer): Nullable;
  CFNumberCreate(alloc: null, type: number, value: [number]): Nullable;
  CFNumberGetValue(number: Pointer, type: number, value: [number]): boolean;
  CFBooleanGetValue(boolean: Pointer): boolean;
  CFDictionaryGetValue(dictionary: Pointer, key: Pointer): Nullable;
  CFDataGetBytePtr(data: Pointer): Nullable;

  AXIsProcessTrusted(): boolean;
  AXIsProcessTrustedWithOptions(options: Pointer): boolean;
  AXUIElementGetTypeID(): Integer;
  AXValueGetTypeID(): Integer;
  AXUIElementCreateApplication(pid: number): Nullable;
  AXUIElementCreateSystemWide(): Nullable;
  AXUIElementSetMessagingTimeout(element: Pointer, timeoutInSeconds: number): number;
  AXValueGetType(value: Pointer): number;
  AXValueGetPoint(value: Pointer, type: number, point: Partial<CGPoint>): boolean;
  AXValueGetSize(value: Pointer, type: number, size: Partial<CGSize>): boolean;
  AXValueGetError(value: Pointer, type: number, error: [number]): boolean;
  AXValueCreateRange(type: number, range: CFRange): Nullable;

  CGEventCreate(source: null): Nullable;
  CGEventGetLocation(event: Pointer): CGPoint;
  CGEventCreateMouseEvent(source: null, type: number, position: CGPoint, button: number): Nullable;
  CGEventCreateKeyboardEvent(source: null, virtualKey: number, keyDown: boolean): Nullable;
  CGEventKeyboardSetUnicodeString(event: Pointer, length: number, utf16: number[]): void;
  CGEventSetFlags(event: Pointer, flags: bigint): void;
  CGEventSetIntegerValueField(event: Pointer, field: number, value: number): void;
  CGEventSetLocation(event: Pointer, location: CGPoint): void;
  CGEventCreateScrollWheelEvent2(source: null, units: number, wheelCount: number, wheel1: number, wheel2: number, wheel3: number): Nullable;
  CGEventPostToPid(pid: number, event: Pointer): void;
  CGEventPost(tap: number, event: Pointer): void;
  CGWindowListCopyWindowInfo(option: number, relativeToWindow: number): Nullable;
  CGRectMakeWithDictionaryRepresentation(dict: Pointer, rect: Partial<CGRect>): boolean;
  CGPreflightScreenCaptureAccess(): boolean;
  CGRequestScreenCaptureAccess(): boolean;
  CGPreflightListenEventAccess(): boolean;
  CGRequestListenEventAccess(): boolean;
  CGEventTapCreate(tap: number, place: number, options: number, eventsOfInterest: bigint, callback: Pointer, userInfo: null): Nullable;
  CGEventTapEnable(tap: Pointer, enable: boolean): void;
  CGEventGetIntegerValueField(event: Pointer, field: number): Integer;
  CGEventGetFlags(event: Pointer): Integer;
  CGEventKeyboardGetUnicodeString(event: Pointer, maxStringLength: number, actualStringLength: [Integer], unicodeString: Uint16Array): void;
  CFMachPortCreateRunLoopSource(alloc: null, port: Pointer, order: number): Nullable;
  CFMachPortInvalidate(port: Pointer): void;
  CFRunLoopGetCurrent(): Pointer;
  CFRunLoopAddSource(runLoop: Pointer, source: Pointer, mode: Pointer): void;
  CFRunLoopRemoveSource(runLoop: Pointer, source: Pointer, mode: Pointer): void;
  CFRunLoopRunInMode(mode: Pointer, seconds: number, returnAfterSourceHandled: boolean): number;
  /** koffi.register of a CGEventTapCallBack: the pointer to pass to CGEventTapCreate. Undone by unregisterCallback. */
  registerEventTapCallback(handler: EventTapHandler): Pointer;
  unregisterCallback(callback: Pointer): void;

  TISCopyCurrentKeyboardLayoutInputSource(): Nullable;
  TISGetInputSourceProperty(source: Pointer, key: Pointer): Nullable;
  LMGetKbdType(): number;
  pthread_main_np(): number;
  UCKeyTranslate(
    layout: Pointer,
    virtualKeyCode: number,
    keyAction: number,
    modifierKeyState: number,
    keyboardType: number,
    keyTranslateOptions: number,
    deadKeyState: [number],
    maxStringLength: number,
    actualStringLength: [Integer],
    unicodeString: Uint16Array,
  ): number;

  objc_getClass(name: string): Nullable;
  sel_registerName(name: string): Pointer;
  objc_autoreleasePoolPush(): Pointer;
  objc_autoreleasePoolPop(pool: Pointer): void;
  msgSendId(self: Pointer, op: Pointer): Nullable;
  msgSendIdIndex(self: Pointer, op: Pointer, index: number): Nullable;
  msgSendIdPid(self: Pointer, op: Pointer, pid: number): Nullable;
  msgSendLong(self: Pointer, op: Pointer): Integer;
  msgSendInt32(self: Pointer, op: Pointer): number;
  msgSendCString(self: Pointer, op: Pointer): string | null;

  kCFBooleanTrue: Pointer;
  kCFBooleanFalse: Pointer;
  kAXTrustedCheckOptionPrompt: Pointer;
  kCGWindowOwnerPID: Pointer;
  kCGWindowNumber: Pointer;
  kCGWindowLayer: Pointer;
  kCGWindowBounds: Pointer;
  kCGWindowAlpha: Pointer;
  kTISPropertyUnicodeKeyLayoutData: Pointer;
  kCFTypeArrayCallBacks: Pointer;
  kCFTypeDictionaryKeyCallBacks: Pointer;
  kCFTypeDictionaryValueCallBacks: Pointer;
}

/**
 * Prototypes of the macOS functions Deskpilot calls, as koffi 3 prototype strings, with the
 * library each lives in. Kept as data (no koffi import) so a test can parse every one with
 * koffi.proto() on any OS. Types follow docs/macos.md:
 * pointers are `void *` (BigInt in koffi 3, null for NULL), AXError is int32_t, CFIndex and
 * CFNumberType are `long`, the messaging timeout and hit-test coordinates are `float`.
 */

export const LIBRARY_PATHS = {
  // AX* and kAXTrustedCheckOptionPrompt are defined here; variables are looked up in their defining image.
  hiServices: '/System/Library/Frameworks/ApplicationServices.framework/Frameworks/HIServices.framework/HIServices',
  coreFoundation: '/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation',
  coreGraphics: '/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics',
  objc: '/usr/lib/libobjc.A.dylib',
  // Loaded only so NSWorkspace is registered with the ObjC runtime in a plain Node process.
  appKit: '/System/Library/Frameworks/AppKit.framework/AppKit',
  // TIS* (the current keyboard layout), LMGetKbdType and kTISPropertyUnicodeKeyLayoutData (TextInputSources.h, Events.h).
  hiToolbox: '/System/Library/Frameworks/Carbon.framework/Frameworks/HIToolbox.framework/HIToolbox',
  // UCKeyTranslate (UnicodeUtilities.h).
  carbonCore: '/System/Library/Frameworks/CoreServices.framework/Frameworks/CarbonCore.framework/CarbonCore',
  // pthread_main_np: TIS calls trap off the main thread on recent macOS.
  system: '/usr/lib/libSystem.B.dylib',
} as const;

export type LibraryName = keyof typeof LIBRARY_PATHS;

/** By-value structs; registered once before any prototype that names them. */
export const STRUCTS = {
  CGPoint: { x: 'double', y: 'double' },
  CGSize: { width: 'double', height: 'double' },
  CFRange: { location: 'long', length: 'long' },
  // After CGPoint and CGSize, which it is made of (CGGeometry.h).
  CGRect: { origin: 'CGPoint', size: 'CGSize' },
} as const;

export interface Declaration {
  library: LibraryName;
  /** The C prototype; its function name is the exported symbol. */
  proto: string;
}

const cf = (proto: string): Declaration => ({ library: 'coreFoundation', proto });
const ax = (proto: string): Declaration => ({ library: 'hiServices', proto });
const cg = (proto: string): Declaration => ({ library: 'coreGraphics', proto });
const objc = (proto: string): Declaration => ({ library: 'objc', proto });
const hiToolbox = (proto: string): Declaration => ({ library: 'hiToolbox', proto });

/** Keys are the JS names; several objc_msgSend shapes share one symbol, never a variadic one. */
export const DECLARATIONS = {
  CFRelease: cf('void CFRelease(void *cf)'),
  CFRetain: cf('void *CFRetain(void *cf)'),
  CFGetTypeID: cf('ulong CFGetTypeID(void *cf)'),
  CFStringGetTypeID: cf('ulong CFStringGetTypeID()'),
  CFNumberGetTypeID: cf('ulong CFNumberGetTypeID()'),
  CFBooleanGetTypeID: cf('ulong CFBooleanGetTypeID()'),
  CFArrayGetTypeID: cf('ulong CFArrayGetTypeID()'),
  CFStringCreateWithCString: cf('void *CFStringCreateWithCString(void *alloc, const char *cStr, uint32_t encoding)'),
  CFStringGetLength: cf('long CFStringGetLength(void *string)'),
  CFStringGetMaximumSizeForEncoding: cf('long CFStringGetMaximumSizeForEncoding(long length, uint32_t encoding)'),
  CFStringGetCString: cf('bool CFStringGetCString(void *string, _Out_ uint8_t *buffer, long bufferSize, uint32_t encoding)'),
  CFStringGetCStringPtr: cf('const char *CFStringGetCStringPtr(void *string, uint32_t encoding)'),
  CFArrayGetCount: cf('long CFArrayGetCount(void *array)'),
  CFArrayGetValueAtIndex: cf('void *CFArrayGetValueAtIndex(void *array, long index)'),
  CFArrayCreate: cf('void *CFArrayCreate(void *alloc, void **values, long numValues, void *callBacks)'),
  CFDictionaryCreate: cf('void *CFDictionaryCreate(void *alloc, void **keys, void **values, long numValues, void *keyCallBacks, void *valueCallBacks)'),
  CFNumberCreate: cf('void *CFNumberCreate(void *alloc, long theType, const double *valuePtr)'),
  CFNumberGetValue: cf('bool CFNumberGetValue(void *number, long theType, _Out_ double *valuePtr)'),
  CFBooleanGetValue: cf('bool CFBooleanGetValue(void *boolean)'),
  CFDictionaryGetValue: cf('void *CFDictionaryGetValue(void *dictionary, void *key)'),
  CFDataGetBytePtr: cf('void *CFDataGetBytePtr(void *data)'),

  AXIsProcessTrusted: ax('bool AXIsProcessTrusted()'),
  AXIsProcessTrustedWithOptions: ax('bool AXIsProcessTrustedWithOptions(void *options)'),
  AXUIElementGetTypeID: ax('ulong AXUIElementGetTypeID()'),
  AXValueGetTypeID: ax('ulong AXValueGetTypeID()'),
  AXUIElementCreateApplication: ax('void *AXUIElementCreateApplication(int32_t pid)'),
  AXUIElementCreateSystemWide: ax('void *AXUIElementCreateSystemWide()'),
  AXUIElementSetMessagingTimeout: ax('int32_t AXUIElementSetMessagingTimeout(void *element, float timeoutInSeconds)'),
  AXUIElementGetPid: ax('int32_t AXUIElementGetPid(void *element, _Out_ int32_t *pid)'),
  AXUIElementCopyAttributeValue: ax('int32_t AXUIElementCopyAttributeValue(void *element, void *attribute, _Out_ void **value)'),
  AXUIElementCopyMultipleAttributeValues: ax(
    'int32_t AXUIElementCopyMultipleAttributeValues(void *element, void *attributes, uint32_t options, _Out_ void **values)',
  ),
  AXUIElementGetAttributeValueCount: ax('int32_t AXUIElementGetAttributeValueCount(void *element, void *attribute, _Out_ long *count)'),
  AXUIElementCopyAttributeValues: ax('int32_t AXUIElementCopyAttributeValues(void *element, void *attribute, long index, long maxValues, _Out_ void **values)'),
  AXUIElementCopyActionNames: ax('int32_t AXUIElementCopyActionNames(void *element, _Out_ void **names)'),
  AXUIElementPerformAction: ax('int32_t AXUIElementPerformAction(void *element, void *action)'),
  AXUIElementSetAttributeValue: ax('int32_t AXUIElementSetAttributeValue(void *element, void *attribute, void *value)'),
  AXUIElementIsAttributeSettable: ax('int32_t AXUIElementIsAttributeSettable(void *element, void *attribute, _Out_ bool *settable)'),
  AXUIElementCopyElementAtPosition: ax('int32_t AXUIElementCopyElementAtPosition(void *application, float x, float y, _Out_ void **element)'),
  AXValueGetType: ax('uint32_t AXValueGetType(void *value)'),
  // AXValueGetValue writes through a void *; one declaration per struct it can hold.
  AXValueGetPoint: { library: 'hiServices', proto: 'bool AXValueGetValue(void *value, uint32_t theType, _Out_ CGPoint *point)' },
  AXValueGetSize: { library: 'hiServices', proto: 'bool AXValueGetValue(void *value, uint32_t theType, _Out_ CGSize *size)' },
  AXValueGetError: { library: 'hiServices', proto: 'bool AXValueGetValue(void *value, uint32_t theType, _Out_ int32_t *error)' },
  AXValueCreateRange: { library: 'hiServices', proto: 'void *AXValueCreate(uint32_t theType, const CFRange *range)' },

  CGEventCreate: cg('void *CGEventCreate(void *source)'),
  CGEventGetLocation: cg('CGPoint CGEventGetLocation(void *event)'),
  CGEventCreateMouseEvent: cg('void *CGEventCreateMouseEvent(void *source, uint32_t mouseType, CGPoint mouseCursorPosition, uint32_t mouseButton)'),
  CGEventCreateKeyboardEvent: cg('void *CGEventCreateKeyboardEvent(void *source, uint16_t virtualKey, bool keyDown)'),
  CGEventKeyboardSetUnicodeString: cg('void CGEventKeyboardSetUnicodeString(void *event, ulong stringLength, const uint16_t *unicodeString)'),
  CGEventSetFlags: cg('void CGEventSetFlags(void *event, uint64_t flags)'),
  CGEventSetIntegerValueField: cg('void CGEventSetIntegerValueField(void *event, uint32_t field, int64_t value)'),
  CGEventSetLocation: cg('void CGEventSetLocation(void *event, CGPoint location)'),
  CGEventCreateScrollWheelEvent2: cg(
    'void *CGEventCreateScrollWheelEvent2(void *source, uint32_t units, uint32_t wheelCount, int32_t wheel1, int32_t wheel2, int32_t wheel3)',
  ),
  CGEventPostToPid: cg('void CGEventPostToPid(int32_t pid, void *event)'),
  CGEventPost: cg('void CGEventPost(uint32_t tap, void *event)'),
  // The window list is a WindowServer query, current on every call; NSWorkspace's app list is not (workspace.ts).
  CGWindowListCopyWindowInfo: cg('void *CGWindowListCopyWindowInfo(uint32_t option, uint32_t relativeToWindow)'),
  // A window's kCGWindowBounds is a CFDictionary (X, Y, Width, Height); this reads it (CGGeometry.h).
  CGRectMakeWithDictionaryRepresentation: cg('bool CGRectMakeWithDictionaryRepresentation(void *dict, _Out_ CGRect *rect)'),
  // The Screen Recording grant (CGWindow.h, macOS 10.15+). Preflight never prompts; Request shows the system prompt.
  CGPreflightScreenCaptureAccess: cg('bool CGPreflightScreenCaptureAccess()'),
  CGRequestScreenCaptureAccess: cg('bool CGRequestScreenCaptureAccess()'),

  // The workflow recorder's listen-only event tap (CGEvent.h, CGEventTypes.h; the access checks are macOS 10.15+).
  // The callback is passed as the pointer koffi.register returns (see EVENT_TAP_CALLBACK), the mask is a uint64 CGEventMask.
  CGPreflightListenEventAccess: cg('bool CGPreflightListenEventAccess()'),
  CGRequestListenEventAccess: cg('bool CGRequestListenEventAccess()'),
  CGEventTapCreate: cg('void *CGEventTapCreate(uint32_t tap, uint32_t place, uint32_t options, uint64_t eventsOfInterest, void *callback, void *userInfo)'),
  CGEventTapEnable: cg('void CGEventTapEnable(void *tap, bool enable)'),
  CGEventGetIntegerValueField: cg('int64_t CGEventGetIntegerValueField(void *event, uint32_t field)'),
  CGEventGetFlags: cg('uint64_t CGEventGetFlags(void *event)'),
  CGEventKeyboardGetUnicodeString: cg(
    'void CGEventKeyboardGetUnicodeString(void *event, ulong maxStringLength, _Out_ ulong *actualStringLength, _Out_ uint16_t *unicodeString)',
  ),
  // CFRunLoop.h / CFMachPort.h: the tap is a mach port whose run-loop source is pumped from JS (event-tap.ts).
  CFMachPortCreateRunLoopSource: cf('void *CFMachPortCreateRunLoopSource(void *alloc, void *port, long order)'),
  CFMachPortInvalidate: cf('void CFMachPortInvalidate(void *port)'),
  CFRunLoopGetCurrent: cf('void *CFRunLoopGetCurrent()'),
  CFRunLoopAddSource: cf('void CFRunLoopAddSource(void *rl, void *source, void *mode)'),
  CFRunLoopRemoveSource: cf('void CFRunLoopRemoveSource(void *rl, void *source, void *mode)'),
  CFRunLoopRunInMode: cf('int32_t CFRunLoopRunInMode(void *mode, double seconds, bool returnAfterSourceHandled)'),

  // The keyboard layout, so key codes follow it instead of a US table (keyboard-layout.ts).
  TISCopyCurrentKeyboardLayoutInputSource: hiToolbox('void *TISCopyCurrentKeyboardLayoutInputSource()'),
  TISGetInputSourceProperty: hiToolbox('void *TISGetInputSourceProperty(void *source, void *key)'),
  LMGetKbdType: hiToolbox('uint8_t LMGetKbdType()'),
  pthread_main_np: { library: 'system', proto: 'int pthread_main_np()' },
  UCKeyTranslate: {
    library: 'carbonCore',
    proto:
      'int32_t UCKeyTranslate(void *layout, uint16_t virtualKeyCode, uint16_t keyAction, uint32_t modifierKeyState, uint32_t keyboardType, ' +
      'uint32_t keyTranslateOptions, _Inout_ uint32_t *deadKeyState, ulong maxStringLength, _Out_ ulong *actualStringLength, _Out_ uint16_t *unicodeString)',
  },

  objc_getClass: objc('void *objc_getClass(const char *name)'),
  sel_registerName: objc('void *sel_registerName(const char *name)'),
  objc_autoreleasePoolPush: objc('void *objc_autoreleasePoolPush()'),
  objc_autoreleasePoolPop: objc('void objc_autoreleasePoolPop(void *pool)'),
  msgSendId: objc('void *objc_msgSend(void *self, void *op)'),
  msgSendIdIndex: objc('void *objc_msgSend(void *self, void *op, ulong index)'),
  // +[NSRunningApplication runningApplicationWithProcessIdentifier:] takes a pid_t.
  msgSendIdPid: objc('void *objc_msgSend(void *self, void *op, int32_t pid)'),
  msgSendLong: objc('long objc_msgSend(void *self, void *op)'),
  msgSendInt32: objc('int32_t objc_msgSend(void *self, void *op)'),
  msgSendCString: objc('const char *objc_msgSend(void *self, void *op)'),
} as const satisfies Record<string, Declaration>;

export type DeclarationName = keyof typeof DECLARATIONS;

/**
 * CGEventTapCallBack (CGEventTypes.h): `CGEventRef (*)(CGEventTapProxy, CGEventType, CGEventRef, void *userInfo)`.
 * Registered once with koffi.register; the tap calls it from inside CFRunLoopRunInMode on the JS thread.
 */
export const EVENT_TAP_CALLBACK = 'void *DeskpilotEventTapCallBack(void *proxy, uint32_t type, void *event, void *userInfo)';

/**
 * AX calls are IPC into another app, answered on its main thread; they also get an async
 * variant (koffi's worker pool) so a slow app never blocks the JS thread.
 */
export const ASYNC_DECLARATIONS = [
  'AXUIElementCopyAttributeValue',
  'AXUIElementCopyMultipleAttributeValues',
  'AXUIElementGetAttributeValueCount',
  'AXUIElementCopyAttributeValues',
  'AXUIElementCopyActionNames',
  'AXUIElementPerformAction',
  'AXUIElementSetAttributeValue',
  'AXUIElementIsAttributeSettable',
  'AXUIElementGetPid',
  // Hit-testing asks the app under the point: IPC like the rest.
  'AXUIElementCopyElementAtPosition',
] as const satisfies readonly DeclarationName[];

/** Exported variables, read where they are defined (a CFString/CFBoolean constant is a pointer stored at the symbol). */
export const VARIABLES = {
  kCFBooleanTrue: { library: 'coreFoundation', read: 'pointer' },
  kCFBooleanFalse: { library: 'coreFoundation', read: 'pointer' },
  kAXTrustedCheckOptionPrompt: { library: 'hiServices', read: 'pointer' },
  kCGWindowOwnerPID: { library: 'coreGraphics', read: 'pointer' },
  // The other keys of a window's dictionary that capture reads (CGWindow.h: required keys).
  kCGWindowNumber: { library: 'coreGraphics', read: 'pointer' },
  kCGWindowLayer: { library: 'coreGraphics', read: 'pointer' },
  kCGWindowBounds: { library: 'coreGraphics', read: 'pointer' },
  kCGWindowAlpha: { library: 'coreGraphics', read: 'pointer' },
  kTISPropertyUnicodeKeyLayoutData: { library: 'hiToolbox', read: 'pointer' },
  // Callback tables are structs: CF wants their address, not their contents.
  kCFTypeArrayCallBacks: { library: 'coreFoundation', read: 'address' },
  kCFTypeDictionaryKeyCallBacks: { library: 'coreFoundation', read: 'address' },
  kCFTypeDictionaryValueCallBacks: { library: 'coreFoundation', read: 'address' },
} as const satisfies Record<string, { library: LibraryName; read: 'pointer' | 'address' }>;

export type VariableName = keyof typeof VARIABLES;

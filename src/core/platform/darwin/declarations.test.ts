import koffi from 'koffi';
import { describe, expect, it } from 'vitest';
import { ASYNC_DECLARATIONS, DECLARATIONS, EVENT_TAP_CALLBACK, VARIABLES, loadMacNative, registerStructs } from '../../../../native/macos';

registerStructs(koffi);

/** koffi keeps prototype names global, so each parse gets a unique name. */
function parse(key: string, proto: string) {
  return koffi.proto(proto.replace(/([A-Za-z_][A-Za-z0-9_]*)\s*\(/, `test_${key}(`));
}

describe('native/macos declarations', () => {
  it.each(Object.entries(DECLARATIONS))('%s parses with the real koffi', (key, declaration) => {
    const type = parse(key, declaration.proto);
    expect(type.primitive).toBe('Prototype');
  });

  it('has no variadic prototype (objc_msgSend and the scroll event need fixed shapes on arm64)', () => {
    for (const declaration of Object.values(DECLARATIONS)) expect(declaration.proto).not.toContain('...');
    expect(Object.values(DECLARATIONS).some((declaration) => /CGEventCreateScrollWheelEvent\(/.test(declaration.proto))).toBe(false);
    expect(DECLARATIONS.CGEventCreateScrollWheelEvent2.proto).toContain('int32_t wheel1, int32_t wheel2, int32_t wheel3');
  });

  it('declares CFNumberType as CFIndex-sized and the timeout and hit-test coordinates as float', () => {
    // koffi's typings call arguments TypeObjects; at run time each is { type, direction }.
    const argument = (key: keyof typeof DECLARATIONS, index: number) =>
      parse(`${key}_${index}`, DECLARATIONS[key].proto).proto?.arguments[index] as unknown as
        { type: { size: number; primitive: string; name: string } } | undefined;
    expect(argument('CFNumberCreate', 1)?.type.size).toBe(8);
    expect(argument('CFNumberGetValue', 1)?.type.size).toBe(8);
    expect(argument('AXUIElementSetMessagingTimeout', 1)?.type.primitive).toBe('Float32');
    expect(argument('AXUIElementCopyElementAtPosition', 1)?.type.primitive).toBe('Float32');
    expect(argument('AXUIElementCopyElementAtPosition', 2)?.type.primitive).toBe('Float32');
    expect(argument('CGEventPostToPid', 0)?.type.primitive).toBe('Int32');
    expect(argument('CGEventSetFlags', 1)?.type.primitive).toBe('UInt64');
    expect(argument('CGEventCreateMouseEvent', 2)?.type.name).toBe('CGPoint');
    // UnicodeUtilities.h: UInt16 key code and action, UInt32 modifiers, keyboard type and options, UniCharCount (unsigned long) lengths.
    expect([1, 2, 3, 4, 5].map((index) => argument('UCKeyTranslate', index)?.type.primitive)).toEqual(['UInt16', 'UInt16', 'UInt32', 'UInt32', 'UInt32']);
    expect(argument('UCKeyTranslate', 7)?.type.size).toBe(8);
    expect(argument('msgSendIdPid', 2)?.type.primitive).toBe('Int32');
    expect(argument('CGWindowListCopyWindowInfo', 0)?.type.primitive).toBe('UInt32');
    // CGRect is two CGPoint-sized pairs of doubles, written through the out pointer.
    const rect = parse('CGRect_out', DECLARATIONS.CGRectMakeWithDictionaryRepresentation.proto).proto?.arguments[1] as unknown as
      { type: { name: string; ref: { size: number } }; direction: string } | undefined;
    expect([rect?.type.name, rect?.type.ref.size, rect?.direction]).toEqual(['CGRect *', 32, 'Output']);
  });

  it('declares the event tap as CGEvent.h has it: a uint64 mask, a callback pointer, and a callback koffi can register', () => {
    const argument = (key: keyof typeof DECLARATIONS, index: number) =>
      parse(`${key}_${index}`, DECLARATIONS[key].proto).proto?.arguments[index] as unknown as { type: { primitive: string; size: number } } | undefined;
    expect(argument('CGEventTapCreate', 3)?.type.primitive).toBe('UInt64');
    expect(argument('CGEventTapCreate', 4)?.type.size).toBe(8);
    expect(argument('CFRunLoopRunInMode', 1)?.type.primitive).toBe('Float64');
    const callback = parse('tap_callback', EVENT_TAP_CALLBACK);
    expect(callback.proto?.arguments.map((each) => (each as unknown as { type: { size: number } }).type.size)).toEqual([8, 4, 8, 8]);
  });

  it('binds every objc_msgSend shape to the one symbol, and async variants only to AX IPC', () => {
    const shapes = Object.entries(DECLARATIONS).filter(([, declaration]) => declaration.proto.includes('objc_msgSend('));
    expect(shapes.map(([key]) => key).sort()).toEqual(['msgSendCString', 'msgSendId', 'msgSendIdIndex', 'msgSendIdPid', 'msgSendInt32', 'msgSendLong']);
    for (const name of ASYNC_DECLARATIONS) expect(name.startsWith('AXUIElement')).toBe(true);
  });

  it('reads constants as variables and never looks up attribute names as symbols', () => {
    expect(Object.keys(VARIABLES)).not.toContain('kAXRoleAttribute');
    expect(VARIABLES.kCFTypeArrayCallBacks.read).toBe('address');
    expect(VARIABLES.kCFBooleanTrue.read).toBe('pointer');
    expect(VARIABLES.kAXTrustedCheckOptionPrompt.library).toBe('hiServices');
    // Each variable is read from the image that defines it.
    expect(VARIABLES.kCGWindowOwnerPID.library).toBe('coreGraphics');
    for (const key of ['kCGWindowNumber', 'kCGWindowLayer', 'kCGWindowBounds', 'kCGWindowAlpha'] as const)
      expect(VARIABLES[key]).toEqual({ library: 'coreGraphics', read: 'pointer' });
    expect(DECLARATIONS.CGPreflightScreenCaptureAccess).toEqual({ library: 'coreGraphics', proto: 'bool CGPreflightScreenCaptureAccess()' });
    expect(VARIABLES.kTISPropertyUnicodeKeyLayoutData.library).toBe('hiToolbox');
  });

  // On a Mac loading succeeds: this is about every other OS (issue 29, point 1).
  it.skipIf(process.platform === 'darwin')('loads nothing at import time; off macOS loading fails cleanly', async () => {
    await expect(loadMacNative()).rejects.toThrow();
  });
});

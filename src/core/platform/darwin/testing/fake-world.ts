import type { CGPoint, CGSize } from '../../../../../native/macos';

/** One scripted element of a fake app. */
export interface FakeNode {
  role: string;
  subrole?: string;
  title?: string;
  description?: string;
  value?: string | number | boolean;
  identifier?: string;
  /** AXPlaceholderValue: a field's hint text. */
  placeholder?: string;
  /** AXTitleUIElement: the element that labels this one (another node of the same app). */
  titleElement?: FakeNode;
  enabled?: boolean;
  focused?: boolean;
  position?: CGPoint;
  size?: CGSize;
  children?: FakeNode[];
  actions?: string[];
  /** Attributes AXUIElementIsAttributeSettable reports as settable. */
  settable?: string[];
  /** AXError a set of this attribute returns instead of storing the value. */
  setResult?: Record<string, number>;
  /** AXError a perform of this action returns. */
  performResult?: Record<string, number>;
  /** AXHelp: the tooltip, the only text an icon-only button may have. */
  help?: string;
  /** The batch reports AXChildren as this AXError: a list too big to send whole. */
  batchChildrenError?: number;
  /**
   * AXChildren takes longer than the messaging timeout: a batch or a single copy that asks for it
   * fails with kAXErrorCannotComplete after the whole timeout (charged to the fake clock), while
   * the count and the ranged copy answer at once (AXUIElement.h on large tables).
   */
  slowChildren?: boolean;
  /**
   * AXChildren is reported unsupported (by the batch slot, the single copy and the count), yet the
   * ranged copy answers: Books.app as vimac #386 found it.
   */
  childrenUnsupported?: boolean;
  /** The batch answers only this many slots: shorter than the names it was asked for. */
  batchShort?: number;
  /** AXEnabled and AXFocused come as CFNumber 0/1 instead of CFBoolean, as some toolkits send them. */
  numericFlags?: boolean;
  /** What the batch puts in these slots instead of the value: CFNull or an AXError value. */
  batchSlots?: Record<string, number | 'null'>;
  /** The whole batch fails with this AXError when it asks for AXChildren (or always, with batchErrorAlways). */
  batchError?: number;
  batchErrorAlways?: boolean;
  /** A single AXUIElementCopyAttributeValue of this attribute fails with this AXError. */
  readErrors?: Record<string, number>;
  /** What was set or performed, for assertions. */
  log?: string[];
  /** The text selection (AXSelectedTextRange) in `value`: the caret when its length is 0. */
  selection?: { location: number; length: number };
  /** A set of AXSelectedText answers success and changes nothing (as an app that only claims the attribute may). */
  ignoresSelectedText?: boolean;
  /** A window's AXDefaultButton and AXCancelButton: nodes of its tree. */
  defaultButton?: FakeNode;
  cancelButton?: FakeNode;
  /** A menu item's key equivalent: AXMenuItemCmdChar, …CmdModifiers, …CmdVirtualKey, …CmdGlyph. */
  cmdChar?: string;
  cmdModifiers?: number;
  cmdVirtualKey?: number;
  cmdGlyph?: number;
}

export interface FakeApp {
  pid: number;
  name: string;
  bundleId?: string;
  /** NSApplicationActivationPolicy: 0 regular, 1 accessory, 2 prohibited. */
  policy?: number;
  windows: FakeNode[];
  /** Every AX call times out (kAXErrorCannotComplete after the messaging timeout): a frozen app. */
  hung?: boolean;
  /** Every AX call fails with kAXErrorCannotComplete at once: an app that does not speak accessibility. */
  noAccessibility?: boolean;
  /** The process is gone: AX answers kAXErrorCannotComplete and isAlive says false. */
  dead?: boolean;
  /** An Electron app (or a browser, with `switch`): its windows stay empty until that attribute (default AXManualAccessibility) is set, then for `readsBeforeTree` more reads. */
  electron?: FakeElectron;
  /** First of the app element's AXChildren (not of its AXWindows); made on first read. */
  menuBar?: FakeNode;
  /** Attribute sets on the app element, in order. */
  appSets?: string[];
  /** AXFrontmost = true fails with kAXErrorCannotComplete; 'silently': it succeeds but the app stays behind. */
  refusesFront?: boolean | 'silently';
}

export interface FakeElectron {
  readsBeforeTree: number;
  content: FakeNode[];
  setCode?: number;
  switch?: 'AXManualAccessibility' | 'AXEnhancedUserInterface';
  /** The web content appears this long (fake clock) after the switch took; a later set starts the wait again (Electron debounces, openwork#4595). */
  appearsAfterMs?: number;
  /** Until this time on the fake clock the window is not shown: a set answers success but is ignored (cotabby#19). */
  shownAtMs?: number;
  /** More content (the editor buffer) that appears only when the switch is set again after the web area showed (cua#3783). */
  lateContent?: FakeNode[];
  /** Fake state: when the switch last took, and whether it was set again once the content showed. */
  tookAt?: number;
  reasserted?: boolean;
}

/** Whether an Electron window shows its web content at `now` on the fake clock. */
export function contentShows(electron: FakeElectron, now: number): boolean {
  if (electron.tookAt === undefined) return false;
  return now - electron.tookAt >= (electron.appearsAfterMs ?? 0);
}

/** One entry of the WindowServer's list (CGWindowListCopyWindowInfo), in screen points. */
export interface FakeWindowInfo {
  pid: number;
  /** kCGWindowNumber: what `screencapture -l` takes. */
  number: number;
  /** kCGWindowLayer: 0 for document windows; menus, panels, the Dock and status items sit higher. */
  layer?: number;
  bounds: { x: number; y: number; width: number; height: number };
  /** Off screen: minimized, hidden, or on another Space. On-screen-only lists leave it out. */
  offScreen?: boolean;
  /** kCGWindowAlpha; 1 unless set. */
  alpha?: number;
}

export interface FakeWorld {
  apps: FakeApp[];
  /**
   * The window list, front to back. Unset: one entry per window of each live app, in app order,
   * numbered pid × 100 + index + 1, at layer 0, with the window node's position and size.
   */
  windowList?: FakeWindowInfo[];
  /** CGPreflightScreenCaptureAccess's answer (the Screen Recording grant); true unless set. */
  screenRecording?: boolean;
  focusedPid?: number;
  /** AXIsProcessTrusted's answer. */
  trusted: boolean;
  /** Whether AX calls work: false makes every call return kAXErrorAPIDisabled (a stale grant when trusted is true). */
  granted: boolean;
  /** Milliseconds on the fake clock: the harness's sleep and every timed-out AX call move it on. */
  clockMs?: number;
  /**
   * The current keyboard layout as UCKeyTranslate sees it: key code → [unshifted, shifted]
   * character. Undefined: a small German (QWERTZ) layout; null: no Unicode layout data at all.
   */
  keyboard?: Record<number, [string, string]> | null;
  /** pthread_main_np's answer: false models a call from another thread, where TIS would trap. */
  offMainThread?: boolean;
}

/** The keys of a German (QWERTZ) layout that differ from US, plus what the tests type. */
export const GERMAN_KEYBOARD: Record<number, [string, string]> = {
  0x00: ['a', 'A'],
  0x01: ['s', 'S'],
  0x06: ['y', 'Y'],
  0x10: ['z', 'Z'],
  0x0e: ['e', 'E'],
  0x1f: ['o', 'O'],
  0x04: ['h', 'H'],
  0x25: ['l', 'L'],
  0x12: ['1', '!'],
  // Shift+2 is '"' and shift+8 is '(' on German keyboards (on US: '@' and '*'); '@' is Option+L, no shift-only key.
  0x13: ['2', '"'],
  0x1c: ['8', '('],
  0x29: ['ö', 'Ö'],
  0x31: [' ', ' '],
};

export function button(title: string, extra: Partial<FakeNode> = {}): FakeNode {
  return { role: 'AXButton', title, actions: ['AXPress', 'AXShowMenu'], position: { x: 10, y: 20 }, size: { width: 80, height: 24 }, ...extra };
}

/** A small document app: every widget kind the actions need, a secure field and a 1000-row list. */
export function sampleApp(pid = 501): FakeApp {
  const rows = Array.from({ length: 1000 }, (_unused, index): FakeNode => ({ role: 'AXRow', children: [{ role: 'AXStaticText', value: `Item ${index}` }] }));
  return {
    pid,
    name: 'Notes',
    bundleId: 'com.example.notes',
    windows: [
      {
        role: 'AXWindow',
        subrole: 'AXStandardWindow',
        title: 'Untitled',
        position: { x: 100, y: 50 },
        size: { width: 800, height: 600 },
        children: [
          button('Save'),
          { role: 'AXButton', description: 'Custom', actions: ['AXShowMenu'], position: { x: 200, y: 20 }, size: { width: 40, height: 40 } },
          { role: 'AXCheckBox', title: 'Bold', value: 0, actions: ['AXPress'], settable: ['AXValue', 'AXFocused'] },
          { role: 'AXTextField', title: 'Name', value: 'Ada', identifier: 'name_field', settable: ['AXValue', 'AXFocused', 'AXSelectedTextRange'] },
          { role: 'AXTextField', subrole: 'AXSecureTextField', title: 'Password', value: 'hunter2', settable: ['AXValue', 'AXFocused'] },
          { role: 'AXSlider', title: 'Volume', value: 0.5, settable: ['AXValue'] },
          { role: 'AXStaticText', value: 'Read only', enabled: true },
          { role: 'AXScrollArea', children: [{ role: 'AXList', slowChildren: true, children: rows }] },
        ],
      },
    ],
  };
}

export function electronApp(pid = 777): FakeApp {
  return {
    pid,
    name: 'Slack',
    bundleId: 'com.tinyspeck.slackmacgap',
    windows: [{ role: 'AXWindow', title: 'Slack', children: [] }],
    electron: {
      readsBeforeTree: 2,
      content: [{ role: 'AXGroup', children: [{ role: 'AXWebArea', title: 'Slack', children: [button('Send')] }] }],
    },
  };
}

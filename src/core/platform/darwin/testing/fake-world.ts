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
  /** The batch reports AXChildren as this AXError: a list too big to send whole. */
  batchChildrenError?: number;
  /** What the batch puts in these slots instead of the value: CFNull or an AXError value. */
  batchSlots?: Record<string, number | 'null'>;
  /** The whole batch fails with this AXError when it asks for AXChildren (or always, with batchErrorAlways). */
  batchError?: number;
  batchErrorAlways?: boolean;
  /** A single AXUIElementCopyAttributeValue of this attribute fails with this AXError. */
  readErrors?: Record<string, number>;
  /** What was set or performed, for assertions. */
  log?: string[];
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
  /** Every AX call times out (kAXErrorCannotComplete): a frozen app. */
  hung?: boolean;
  /** The process is gone: AX answers kAXErrorCannotComplete and isAlive says false. */
  dead?: boolean;
  /** An Electron app (or a browser, with `switch`): its windows stay empty until that attribute (default AXManualAccessibility) is set, then for `readsBeforeTree` more reads. */
  electron?: { readsBeforeTree: number; content: FakeNode[]; setCode?: number; switch?: 'AXManualAccessibility' | 'AXEnhancedUserInterface' };
  /** First of the app element's AXChildren (not of its AXWindows); made on first read. */
  menuBar?: FakeNode;
  /** Attribute sets on the app element, in order. */
  appSets?: string[];
  /** AXFrontmost = true fails with kAXErrorCannotComplete; 'silently': it succeeds but the app stays behind. */
  refusesFront?: boolean | 'silently';
}

export interface FakeWorld {
  apps: FakeApp[];
  focusedPid?: number;
  /** AXIsProcessTrusted's answer. */
  trusted: boolean;
  /** Whether AX calls work: false makes every call return kAXErrorAPIDisabled (a stale grant when trusted is true). */
  granted: boolean;
}

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
          { role: 'AXScrollArea', children: [{ role: 'AXList', batchChildrenError: -25204, children: rows }] },
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

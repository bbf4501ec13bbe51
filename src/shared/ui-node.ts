/**
 * The one tree shape every platform produces and every consumer reads.
 * Roles are normalized across platforms; the raw platform role is kept as `platformRole`.
 */
export const ROLES = [
  'application',
  'window',
  'dialog',
  'button',
  'togglebutton',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'textfield',
  'textarea',
  'combobox',
  'list',
  'listitem',
  'tree',
  'treeitem',
  'table',
  'row',
  'cell',
  'columnheader',
  'menu',
  'menubar',
  'menuitem',
  'tab',
  'tablist',
  'tabpanel',
  'toolbar',
  'statusbar',
  'scrollbar',
  'scrollarea',
  'progressbar',
  'link',
  'image',
  'label',
  'text',
  'heading',
  'document',
  'group',
  'separator',
  'dropzone',
  'unknown',
] as const;

export type Role = (typeof ROLES)[number];

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface UiStates {
  enabled: boolean;
  focused: boolean;
  selected?: boolean;
  checked?: boolean;
  expanded?: boolean;
  editable?: boolean;
  /** A password field: its value is never read, stored or printed. */
  secret?: boolean;
  /** False when the platform says the node is not showing (off-screen, collapsed, hidden). */
  visible?: boolean;
}

export interface UiNode {
  id: string;
  role: Role;
  platformRole: string;
  name: string;
  /**
   * Where an empty name was taken from: `label`, a label the app ties to the control (what a
   * screen reader announces, a fact); `geometry`, the nearest label beside or above it (a guess).
   */
  nameFrom?: 'label' | 'geometry';
  value?: string | number;
  /** The value was cut to the tree's limit; ui_read (deskpilot read) gives all of it. */
  valueTruncated?: boolean;
  description?: string;
  /**
   * The toolkit's own id for the element, where the app sets one (AT-SPI's accessible id,
   * macOS's AXIdentifier): stable across relayouts and renames, so workflows prefer it.
   */
  toolkitId?: string;
  /** Hint text an empty field shows ("Search…"): not its value and not its name. */
  placeholder?: string;
  states: UiStates;
  bounds?: Bounds;
  actions: string[];
  children?: UiNode[];
  /** Set on snapshots that leave `children` out, so a change in the number of children still shows. */
  childCount?: number;
  /**
   * `ocr`: text read off the window's pixels where the tree has nothing there (a canvas, an
   * image). Its bounds are where it was seen; a click lands at their centre through synthetic input.
   */
  source?: 'ocr';
  /** On the root only: the read stopped before the whole tree, and why. Absent when the tree is whole. */
  cut?: ReadCut;
}

/**
 * Why a read left part of the tree out: `max-nodes`, the reader's node cap (`limit` nodes);
 * `max-depth`, its depth cap (`limit` levels). `nodes` is how many were kept.
 */
export interface ReadCut {
  reason: 'max-nodes' | 'max-depth';
  limit: number;
  nodes: number;
}

export interface WindowInfo {
  title: string;
  bounds?: Bounds;
  focused?: boolean;
}

export interface AppInfo {
  pid: number;
  name: string;
  windows: WindowInfo[];
  /** Other names users call it by: its program, its desktop files' ids, Names and WM classes. For matching, not shown. */
  aliases?: string[];
  /** What kind of app its desktop files say it is (GenericName, Keywords): weaker evidence than aliases. */
  kinds?: string[];
  /**
   * Who the app is beyond its display name, so a workflow finds the same app again: its
   * desktop file id on Linux (org.xfce.mousepad.desktop), its bundle id on macOS. Set only
   * when exactly one is known; bounded and free of control characters.
   */
  desktopId?: string;
  /** Its program's name (Linux: /proc/<pid>/exe's basename, else /proc/<pid>/comm). */
  processName?: string;
  /** The toolkit and version its accessibility bridge reports ("gtk 3.24.38", "Qt 5.15.8"), as it spells them. */
  toolkit?: string;
  frontmost?: boolean;
}

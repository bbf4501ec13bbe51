/**
 * AT-SPI2 on D-Bus: bus names, object paths, interface names and the numeric enums
 * (AtspiRole, AtspiStateType, AtspiCoordType). Values checked against python3-pyatspi.
 */
export const A11Y_BUS = { name: 'org.a11y.Bus', path: '/org/a11y/bus', interface: 'org.a11y.Bus', status: 'org.a11y.Status' } as const;

export const REGISTRY = { name: 'org.a11y.atspi.Registry', path: '/org/a11y/atspi/registry', interface: 'org.a11y.atspi.Registry' } as const;

export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
export const NULL_PATH = '/org/a11y/atspi/null';
export const CACHE_PATH = '/org/a11y/atspi/cache';

export const IFACE = {
  accessible: 'org.a11y.atspi.Accessible',
  action: 'org.a11y.atspi.Action',
  application: 'org.a11y.atspi.Application',
  cache: 'org.a11y.atspi.Cache',
  component: 'org.a11y.atspi.Component',
  editableText: 'org.a11y.atspi.EditableText',
  text: 'org.a11y.atspi.Text',
  value: 'org.a11y.atspi.Value',
  selection: 'org.a11y.atspi.Selection',
  table: 'org.a11y.atspi.Table',
  eventObject: 'org.a11y.atspi.Event.Object',
  eventFocus: 'org.a11y.atspi.Event.Focus',
} as const;

/** Events that change what a tree fetch returns. */
export const TREE_EVENTS = ['object:children-changed', 'object:state-changed', 'object:property-change', 'object:text-changed', 'focus:'] as const;

/** Signal members on org.a11y.atspi.Event.Object that the tree mirror patches from. */
export const EVENT_MEMBER = {
  childrenChanged: 'ChildrenChanged',
  stateChanged: 'StateChanged',
  propertyChange: 'PropertyChange',
  textChanged: 'TextChanged',
  /** On Event.Focus: the legacy focus event, which some widgets send without a state-changed:focused. */
  focus: 'Focus',
} as const;

/**
 * The body of an Event.Object signal: `siiva{sv}` (detail such as "add" or "accessible-name",
 * two integers, a variant: the child added for children-changed, the new value for
 * property-change, then extra properties). Older bridges send `siiv(so)`.
 */
export type EventBody = [detail: string, detail1: number, detail2: number, data: unknown, ...rest: unknown[]];

/** AtspiRelationType values Deskpilot reads (atspi-constants.h). */
export const RELATION = { LABELLED_BY: 2, DESCRIBED_BY: 18 } as const;

/** One entry of Accessible.GetRelationSet: `a(ua(so))`. */
export type RelationRow = [type: number, targets: ObjectRef[]];

export const COORD_SCREEN = 0;
export const COORD_WINDOW = 1;

/** GTK3 reports a hidden widget at this x. */
export const OFFSCREEN_X = -2147483648;

export const ROLE = {
  ALERT: 2,
  CALENDAR: 5,
  CANVAS: 6,
  CHECK_BOX: 7,
  CHECK_MENU_ITEM: 8,
  COLUMN_HEADER: 10,
  COMBO_BOX: 11,
  DIALOG: 16,
  DRAWING_AREA: 18,
  FILE_CHOOSER: 19,
  FILLER: 20,
  FONT_CHOOSER: 22,
  FRAME: 23,
  ICON: 26,
  IMAGE: 27,
  INTERNAL_FRAME: 28,
  LABEL: 29,
  LAYERED_PANE: 30,
  LIST: 31,
  LIST_ITEM: 32,
  MENU: 33,
  MENU_BAR: 34,
  MENU_ITEM: 35,
  OPTION_PANE: 36,
  PAGE_TAB: 37,
  PAGE_TAB_LIST: 38,
  PANEL: 39,
  PASSWORD_TEXT: 40,
  POPUP_MENU: 41,
  PROGRESS_BAR: 42,
  PUSH_BUTTON: 43,
  RADIO_BUTTON: 44,
  RADIO_MENU_ITEM: 45,
  ROOT_PANE: 46,
  ROW_HEADER: 47,
  SCROLL_BAR: 48,
  SCROLL_PANE: 49,
  SEPARATOR: 50,
  SLIDER: 51,
  SPIN_BUTTON: 52,
  SPLIT_PANE: 53,
  STATUS_BAR: 54,
  TABLE: 55,
  TABLE_CELL: 56,
  TABLE_COLUMN_HEADER: 57,
  TABLE_ROW_HEADER: 58,
  TERMINAL: 60,
  TEXT: 61,
  TOGGLE_BUTTON: 62,
  TOOL_BAR: 63,
  TOOL_TIP: 64,
  TREE: 65,
  TREE_TABLE: 66,
  UNKNOWN: 67,
  VIEWPORT: 68,
  WINDOW: 69,
  HEADER: 71,
  FOOTER: 72,
  PARAGRAPH: 73,
  APPLICATION: 75,
  AUTOCOMPLETE: 76,
  EMBEDDED: 78,
  ENTRY: 79,
  CAPTION: 81,
  DOCUMENT_FRAME: 82,
  HEADING: 83,
  PAGE: 84,
  SECTION: 85,
  FORM: 87,
  LINK: 88,
  TABLE_ROW: 90,
  TREE_ITEM: 91,
  DOCUMENT_SPREADSHEET: 92,
  DOCUMENT_PRESENTATION: 93,
  DOCUMENT_TEXT: 94,
  DOCUMENT_WEB: 95,
  DOCUMENT_EMAIL: 96,
  LIST_BOX: 98,
  GROUPING: 99,
  NOTIFICATION: 101,
  INFO_BAR: 102,
  LEVEL_BAR: 103,
  BLOCK_QUOTE: 105,
  ARTICLE: 109,
  LANDMARK: 110,
  LOG: 111,
  STATIC: 116,
  DESCRIPTION_LIST: 121,
  PUSH_BUTTON_MENU: 129,
  SWITCH: 130,
} as const;

export const STATE = {
  ACTIVE: 1,
  CHECKED: 4,
  COLLAPSED: 5,
  DEFUNCT: 6,
  EDITABLE: 7,
  ENABLED: 8,
  EXPANDABLE: 9,
  EXPANDED: 10,
  FOCUSABLE: 11,
  FOCUSED: 12,
  PRESSED: 20,
  SELECTABLE: 22,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  SINGLE_LINE: 26,
  VISIBLE: 30,
  /** Children are made on demand and may be countless (a spreadsheet's cells). */
  MANAGES_DESCENDANTS: 31,
  INDETERMINATE: 32,
  CHECKABLE: 41,
  READ_ONLY: 43,
} as const;

/** An object on the accessibility bus: the app's unique bus name and the object's path. */
export type ObjectRef = [busName: string, path: string];

/** One row of Cache.GetItems: a((so)(so)(so)iiassusau). */
export type CacheItem = [
  self: ObjectRef,
  app: ObjectRef,
  parent: ObjectRef,
  indexInParent: number,
  childCount: number,
  interfaces: string[],
  name: string,
  role: number,
  description: string,
  states: number[],
];

import type { Bounds, Role } from '../../../shared/ui-node';
import type { RawNode } from '../../ui/ids';
import type { MenuShortcut, Point, ScrollDirection } from '../types';

/** One widget of the in-memory fixture. Its state really changes when acted on. */
export interface Widget {
  key: string;
  role: Role;
  name: string;
  bounds: Bounds;
  value?: string | number;
  checked?: boolean;
  secret?: boolean;
  /** Its tooltip or help text, as a platform reports it. */
  description?: string;
  /** Whether set_value works on it. */
  settable?: boolean;
  /** Native actions it lists, as a platform would name them. */
  actions: string[];
}

export const LIST_ITEMS = 200;
export const ROW_HEIGHT = 20;
const LIST_BOUNDS: Bounds = { x: 300, y: 20, width: 200, height: 300 };
const VISIBLE_ROWS = LIST_BOUNDS.height / ROW_HEIGHT;

/** A menu bar's accelerators as a GTK text editor reports them; tests opt in with `app.menu = FIXTURE_MENU`. */
export const FIXTURE_MENU: readonly MenuShortcut[] = [
  { name: 'New', shortcut: 'ctrl+n', path: ['File'], enabled: true },
  { name: 'Open…', shortcut: 'ctrl+o', path: ['File'], enabled: true },
  { name: 'Save', shortcut: 'ctrl+s', path: ['File'], enabled: true },
  { name: 'Quit', shortcut: 'ctrl+q', path: ['File'], enabled: true },
  { name: 'Undo', shortcut: 'ctrl+z', path: ['Edit'], enabled: false },
  { name: 'Copy', shortcut: 'ctrl+c', path: ['Edit'], enabled: false },
  { name: 'Paste', shortcut: 'ctrl+v', path: ['Edit'], enabled: true },
  { name: 'Find', shortcut: 'ctrl+f', path: ['Search'], enabled: true },
  { name: 'Fullscreen', shortcut: 'f11', path: ['View'], enabled: true },
  { name: 'Contents', shortcut: 'f1', path: ['Help'], enabled: true },
];

export const SLIDER_MIN = 0;
export const SLIDER_MAX = 100;

function widget(key: string, role: Role, name: string, bounds: Bounds, extra: Partial<Widget> = {}): Widget {
  return { key, role, name, bounds, actions: [], ...extra };
}

/**
 * The fixture every test drives: a click counter, a toggle, a slider, a text field, a
 * password field, a read-only label, a 200-item scrollable list, and a drag source with a
 * drop zone whose label changes on drop. The same widgets the Linux fixture app has.
 */
export class FixtureApp {
  readonly widgets: Widget[] = [
    widget('button', 'button', 'Clicked 0 times', { x: 20, y: 20, width: 160, height: 30 }, { actions: ['press'] }),
    widget('toggle', 'checkbox', 'Enable feature', { x: 20, y: 60, width: 160, height: 24 }, { checked: false, actions: ['toggle'] }),
    widget('slider', 'slider', 'Volume', { x: 20, y: 100, width: 200, height: 20 }, { value: 50, settable: true }),
    widget('name', 'textfield', 'Name', { x: 20, y: 140, width: 200, height: 28 }, { value: '', settable: true }),
    widget('password', 'textfield', 'Password', { x: 20, y: 180, width: 200, height: 28 }, { value: '', settable: true, secret: true }),
    widget('status', 'label', 'Ready', { x: 20, y: 220, width: 200, height: 20 }),
    widget('source', 'label', 'Drag me', { x: 550, y: 20, width: 100, height: 40 }),
    widget('drop', 'group', 'Drop here', { x: 550, y: 200, width: 150, height: 100 }),
  ];
  scrollOffset = 0;
  selectedItem: number | undefined;
  focusedKey: string | undefined;
  /** Whether the focused text field's whole text is selected (after ctrl+a). */
  allSelected = false;
  clicks = 0;
  /** Menu accelerators the platform reports; none unless a test sets them, so other contexts stay as they were. */
  menu: MenuShortcut[] = [];
  /** Times the platform was asked for them. */
  menuReads = 0;

  constructor(readonly title = 'Deskpilot Fixture') {}

  get(key: string): Widget {
    const found = this.widgets.find((candidate) => candidate.key === key);
    if (found === undefined) throw new Error(`fixture has no widget '${key}'`);
    return found;
  }

  press(key: string): boolean {
    if (key.startsWith('item:')) {
      this.selectedItem = Number(key.slice(5));
      return true;
    }
    if (!this.widgets.some((candidate) => candidate.key === key)) return false;
    const target = this.get(key);
    if (target.role === 'button') {
      this.clicks += 1;
      target.name = `Clicked ${this.clicks} time${this.clicks === 1 ? '' : 's'}`;
      return true;
    }
    if (target.role === 'checkbox') {
      target.checked = !target.checked;
      return true;
    }
    return false;
  }

  focus(key: string): boolean {
    const target = this.widgets.find((candidate) => candidate.key === key);
    if (target === undefined) return false;
    if (!['textfield', 'button', 'checkbox', 'slider'].includes(target.role)) return false;
    if (this.focusedKey !== key) this.allSelected = false;
    this.focusedKey = key;
    return true;
  }

  /** Returns false when the widget has no settable value. */
  setValue(key: string, value: string | number): boolean {
    const target = this.widgets.find((candidate) => candidate.key === key);
    if (target === undefined || !target.settable) return false;
    if (target.role === 'slider') {
      const number = Number(value);
      if (!Number.isFinite(number)) return false;
      target.value = Math.min(SLIDER_MAX, Math.max(SLIDER_MIN, number));
    } else {
      target.value = String(value);
    }
    return true;
  }

  itemBounds(index: number): Bounds {
    return { x: LIST_BOUNDS.x, y: LIST_BOUNDS.y + (index - this.scrollOffset) * ROW_HEIGHT, width: LIST_BOUNDS.width, height: ROW_HEIGHT };
  }

  itemVisible(index: number): boolean {
    return index >= this.scrollOffset && index < this.scrollOffset + VISIBLE_ROWS;
  }

  scroll(direction: ScrollDirection, amount: number): void {
    const rows = direction === 'down' ? amount * 3 : direction === 'up' ? -amount * 3 : 0;
    this.scrollOffset = Math.min(LIST_ITEMS - VISIBLE_ROWS, Math.max(0, this.scrollOffset + rows));
  }

  /** What is under a point: a widget key, `item:N`, `list`, or undefined. */
  hitTest(point: Point): string | undefined {
    const inside = (bounds: Bounds): boolean =>
      point.x >= bounds.x && point.x < bounds.x + bounds.width && point.y >= bounds.y && point.y < bounds.y + bounds.height;
    if (inside(LIST_BOUNDS)) {
      const index = this.scrollOffset + Math.floor((point.y - LIST_BOUNDS.y) / ROW_HEIGHT);
      return index < LIST_ITEMS ? `item:${index}` : 'list';
    }
    return this.widgets.find((candidate) => inside(candidate.bounds))?.key;
  }

  drop(sourceKey: string): void {
    this.get('drop').name = `Dropped: ${this.get(sourceKey).name}`;
  }

  /** The tree as a backend reports it; refs are `pid/key`, so a handle names its process. */
  tree(pid: number): RawNode<string> {
    const ref = (key: string): string => `${pid}/${key}`;
    const states = (key: string, extra: Partial<RawNode['states']> = {}): RawNode['states'] => ({
      enabled: true,
      focused: this.focusedKey === key,
      ...extra,
    });
    const widgetNode = (item: Widget): RawNode<string> => ({
      ref: ref(item.key),
      role: item.role,
      platformRole: `fake:${item.role}`,
      name: item.name,
      ...(item.value === undefined || item.secret ? {} : { value: item.value }),
      ...(item.description === undefined ? {} : { description: item.description }),
      states: states(item.key, {
        ...(item.checked === undefined ? {} : { checked: item.checked }),
        ...(item.role === 'textfield' ? { editable: true } : {}),
        ...(item.secret ? { secret: true } : {}),
      }),
      bounds: item.bounds,
      actions: item.actions,
    });
    const items: RawNode<string>[] = Array.from({ length: LIST_ITEMS }, (_unused, index) => ({
      ref: ref(`item:${index}`),
      role: 'listitem',
      platformRole: 'fake:listitem',
      name: `Item ${index + 1}`,
      states: states(`item:${index}`, { selected: this.selectedItem === index, visible: this.itemVisible(index) }),
      bounds: this.itemBounds(index),
      actions: ['select'],
    }));
    const form: RawNode<string> = {
      ref: ref('form'),
      role: 'group',
      platformRole: 'fake:panel',
      name: '',
      states: states('form'),
      actions: [],
      children: this.widgets.map(widgetNode),
    };
    const list: RawNode<string> = {
      ref: ref('list'),
      role: 'list',
      platformRole: 'fake:list',
      name: 'Items',
      states: states('list'),
      bounds: LIST_BOUNDS,
      actions: [],
      children: items,
    };
    return {
      ref: ref('window'),
      role: 'window',
      platformRole: 'fake:window',
      name: this.title,
      states: states('window', { focused: true }),
      bounds: { x: 0, y: 0, width: 800, height: 600 },
      actions: [],
      children: [form, list],
    };
  }
}

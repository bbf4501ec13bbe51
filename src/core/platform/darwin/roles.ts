import type { Role } from '../../../shared/ui-node';

/** AXRole → normalized role; a subrole, where it says more, wins (see SUBROLES). */
const ROLES: Record<string, Role> = {
  AXApplication: 'application',
  AXWindow: 'window',
  AXSheet: 'dialog',
  AXDrawer: 'group',
  AXButton: 'button',
  AXMenuButton: 'button',
  AXDisclosureTriangle: 'button',
  AXCheckBox: 'checkbox',
  AXRadioButton: 'radio',
  AXSlider: 'slider',
  AXIncrementor: 'spinbutton',
  AXStepper: 'spinbutton',
  AXTextField: 'textfield',
  AXTextArea: 'textarea',
  AXComboBox: 'combobox',
  AXPopUpButton: 'combobox',
  AXList: 'list',
  AXListItem: 'listitem',
  AXTable: 'table',
  AXGrid: 'table',
  AXOutline: 'tree',
  AXBrowser: 'tree',
  AXRow: 'row',
  AXCell: 'cell',
  AXColumn: 'group',
  AXMenu: 'menu',
  AXMenuBar: 'menubar',
  AXMenuBarItem: 'menuitem',
  AXMenuItem: 'menuitem',
  AXTabGroup: 'tablist',
  AXToolbar: 'toolbar',
  AXScrollBar: 'scrollbar',
  AXScrollArea: 'scrollarea',
  AXProgressIndicator: 'progressbar',
  AXBusyIndicator: 'progressbar',
  AXLevelIndicator: 'progressbar',
  AXLink: 'link',
  AXImage: 'image',
  AXStaticText: 'label',
  AXHeading: 'heading',
  AXWebArea: 'document',
  AXGroup: 'group',
  AXSplitGroup: 'group',
  AXLayoutArea: 'group',
  AXRadioGroup: 'group',
  AXSplitter: 'separator',
  AXValueIndicator: 'slider',
};

const SUBROLES: Record<string, Role> = {
  AXDialog: 'dialog',
  AXSystemDialog: 'dialog',
  AXFloatingWindow: 'window',
  AXSwitch: 'switch',
  AXToggle: 'togglebutton',
  AXTabButton: 'tab',
  AXOutlineRow: 'treeitem',
  AXSecureTextField: 'textfield',
  AXSearchField: 'textfield',
};

export const SECURE_SUBROLE = 'AXSecureTextField';

/** The AXRoles and AXSubroles this table knows: test/macos hands them to its Swift reference walk. */
export const KNOWN_AX_ROLES: readonly string[] = Object.keys(ROLES);
export const KNOWN_AX_SUBROLES: readonly string[] = Object.keys(SUBROLES);

export function normalizeRole(axRole: string, subrole: string | undefined): Role {
  return (subrole === undefined ? undefined : SUBROLES[subrole]) ?? ROLES[axRole] ?? 'unknown';
}

/** Roles whose value is text: a number given to set_value becomes a string (seed 002). */
export const TEXT_ROLES: ReadonlySet<Role> = new Set(['textfield', 'textarea', 'combobox']);
export const TOGGLE_ROLES: ReadonlySet<Role> = new Set(['checkbox', 'radio', 'switch', 'togglebutton']);
const PRESSABLE: ReadonlySet<Role> = new Set([
  'button',
  'checkbox',
  'radio',
  'switch',
  'togglebutton',
  'menuitem',
  'link',
  'tab',
  'combobox',
  'listitem',
  'treeitem',
  'row',
  'cell',
]);
const SETTABLE: ReadonlySet<Role> = new Set(['textfield', 'textarea', 'combobox', 'slider', 'spinbutton']);

/**
 * What a node likely offers, from its role alone: asking each node for its action names
 * would double the IPC of a walk. press() asks the element itself before acting.
 */
export function capabilities(role: Role, enabled: boolean): string[] {
  if (!enabled) return [];
  const actions: string[] = [];
  if (PRESSABLE.has(role)) actions.push('press');
  if (SETTABLE.has(role)) actions.push('set_value');
  if (SETTABLE.has(role) || PRESSABLE.has(role)) actions.push('focus');
  return actions;
}

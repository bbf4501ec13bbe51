import { IFACE, RELATION, ROLE, type ObjectRef, type RelationRow } from '../../../../native/linux/atspi';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { Role } from '../../../shared/ui-node';
import { LABELLED_ROLES } from '../../ui/infer-names';
import type { AtspiClient } from './client';
import { mapLimit } from './pool';

/** What the naming step needs of a fetched node. */
export interface NamedItem {
  self: ObjectRef;
  name: string;
  role: number;
  description: string;
  interfaces: string[];
}

/** What a node's own fields become once its labels are read. */
export interface NameFix {
  name?: string;
  nameFrom?: 'label' | 'geometry';
  description?: string;
  value?: string;
  placeholder?: string;
}

/**
 * Fields whose hint text (GTK 4, Chromium: the `placeholder-text` attribute) tells what goes in
 * them. Text fields only: a spin button always shows its number, and a combo box's hint is on
 * the entry inside it; asking the others cost gtk4-widget-factory 20 calls a read for nothing.
 */
const PLACEHOLDER_ROLES: ReadonlySet<Role> = new Set<Role>(['textfield', 'textarea']);

/** As many calls in flight as the tree fetch allows itself: these are few, and latency is what they cost. */
const CONCURRENCY = 48;

/**
 * A combo box's toolkit name is usually its selected text, which is a value, not a name: its
 * label is read even then, and the old name becomes the value.
 */
function wantsLabel(item: NamedItem, role: Role): boolean {
  return LABELLED_ROLES.has(role) && (isUnnamed(item.name) || role === 'combobox');
}

/** GTK 4 names a widget with no label after its class (`GtkEntry`), which names nothing. */
const TOOLKIT_CLASS_NAME = /^(Gtk|Adw)[A-Z][A-Za-z0-9]*$/;

export function isUnnamed(name: string): boolean {
  return name.trim() === '' || TOOLKIT_CLASS_NAME.test(name.trim());
}

/** A failed call on one node (it went away mid-read) leaves it as it was; a frozen app is still a timeout. */
async function orNothing<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DbusTimeoutError) throw error;
    return undefined;
  }
}

async function textOf(client: AtspiClient, items: ReadonlyMap<string, NamedItem>, target: ObjectRef): Promise<string> {
  const known = items.get(target[1]);
  if (known !== undefined) return known.name.trim();
  return String((await orNothing(client.property(target, IFACE.accessible, 'Name'))) ?? '').trim();
}

async function joined(client: AtspiClient, items: ReadonlyMap<string, NamedItem>, targets: readonly ObjectRef[]): Promise<string> {
  const texts = await Promise.all(targets.map((target) => textOf(client, items, target)));
  return texts.filter((text) => text !== '').join(' ');
}

/**
 * Accessible names the way a screen reader computes them, read only for the nodes that need
 * them: an unnamed control takes its name from its LABELLED_BY targets (joined in order) and
 * its description from DESCRIBED_BY when it has none; editable fields get their placeholder.
 * A label usually sits in the same tree, so its text costs no call.
 */
export async function relationNames(
  client: AtspiClient,
  items: ReadonlyMap<string, NamedItem>,
  paths: readonly string[],
  roleOf: (item: NamedItem) => Role,
  gtk4 = false,
): Promise<Map<string, NameFix>> {
  const fixes = new Map<string, NameFix>();
  const jobs = paths.flatMap((path) => {
    const item = items.get(path);
    if (item === undefined) return [];
    const role = roleOf(item);
    // GTK 4 computes a widget's name and description from its LABELLED_BY and DESCRIBED_BY
    // relations itself, so asking for them again would only find nothing, a call per widget.
    const label = !gtk4 && wantsLabel(item, role);
    const placeholder = PLACEHOLDER_ROLES.has(role) && item.role !== ROLE.PASSWORD_TEXT;
    const classNamed = LABELLED_ROLES.has(role) && isUnnamed(item.name) && item.name !== '';
    return label || placeholder || classNamed ? [{ path, item, role, label, placeholder }] : [];
  });
  await mapLimit(jobs, CONCURRENCY, async ({ path, item, role, label, placeholder }) => {
    // A toolkit class name (GtkEntry) names nothing: without a label the field is unnamed.
    const fix: NameFix = LABELLED_ROLES.has(role) && isUnnamed(item.name) && item.name !== '' ? { name: '' } : {};
    if (label) {
      const [rows] = (await orNothing(client.call(item.self, IFACE.accessible, 'GetRelationSet'))) ?? [[]];
      const targets = (type: number): ObjectRef[] => (rows as RelationRow[]).filter(([kind]) => kind === type).flatMap(([, refs]) => refs);
      const name = await joined(client, items, targets(RELATION.LABELLED_BY));
      if (name !== '') {
        if (role === 'combobox' && !isUnnamed(item.name)) fix.value = item.name.trim();
        fix.name = name;
        fix.nameFrom = 'label';
      }
      if (item.description === '') {
        const description = await joined(client, items, targets(RELATION.DESCRIBED_BY));
        if (description !== '') fix.description = description;
      }
    }
    if (placeholder) {
      const [attributes] = (await orNothing(client.call(item.self, IFACE.accessible, 'GetAttributes'))) ?? [{}];
      const hint = (attributes as Record<string, string> | undefined)?.['placeholder-text']?.trim();
      if (hint !== undefined && hint !== '') fix.placeholder = hint;
    }
    if (Object.keys(fix).length > 0) fixes.set(path, fix);
  });
  return fixes;
}

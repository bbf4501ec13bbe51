import type { Bounds, Role } from '../../shared/ui-node';

/**
 * Controls a person names by the label beside them. Screen readers take their name from the
 * label the app ties to them (AT-SPI LABELLED_BY, AX AXTitleUIElement), and a label that only
 * repeats such a control's name need not be printed twice.
 */
export const LABELLED_ROLES: ReadonlySet<Role> = new Set<Role>([
  'textfield',
  'textarea',
  'combobox',
  'spinbutton',
  'slider',
  'checkbox',
  'radio',
  'switch',
  'list',
  'table',
  'tree',
]);

/** A label that may name a field: its text and where it is on screen. */
export interface PlacedLabel {
  name: string;
  bounds: Bounds;
}

/** How far a label may sit from its field: beside it on the same row, or just above it. */
const MAX_LEFT_GAP = 240;
const MAX_ABOVE_GAP = 48;

const centerY = (bounds: Bounds): number => bounds.y + bounds.height / 2;

/**
 * The label a person would read as a field's name when the app ties none to it: the nearest
 * one to its left on the same row, else the nearest one directly above it, within a short
 * distance. Undefined when no label is close enough, so a guess is never far-fetched.
 */
export function nearestLabel(field: Bounds, labels: readonly PlacedLabel[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const label of labels) {
    const { bounds } = label;
    if (label.name.trim() === '' || bounds.width <= 0 || bounds.height <= 0) continue;
    const sameRow = Math.abs(centerY(bounds) - centerY(field)) <= Math.max(field.height, bounds.height) / 2;
    const leftGap = field.x - (bounds.x + bounds.width);
    const aboveGap = field.y - (bounds.y + bounds.height);
    const overlapsColumn = bounds.x < field.x + field.width && bounds.x + bounds.width > field.x;
    // A label beside the field wins over one above it at the same distance: forms put labels on the left.
    const distance =
      sameRow && leftGap >= -4 && leftGap <= MAX_LEFT_GAP ? leftGap : overlapsColumn && aboveGap >= -4 && aboveGap <= MAX_ABOVE_GAP ? aboveGap + 1 : undefined;
    if (distance !== undefined && (best === undefined || distance < best.distance)) best = { name: label.name.trim(), distance };
  }
  return best?.name;
}

/** Fields a guess may name: ones a person types into or picks from. */
export const GUESSED_ROLES: ReadonlySet<Role> = new Set<Role>(['textfield', 'textarea', 'combobox', 'spinbutton', 'slider']);

/** The parts of a tree node the layout pass reads and writes: UiNode and RawNode both fit. */
interface LaidOut {
  role: Role;
  name: string;
  nameFrom?: 'label' | 'geometry';
  bounds?: Bounds;
  children?: LaidOut[];
}

/**
 * For a tree that carries bounds (macOS reads them with every node): each unnamed field takes
 * the nearest label among its parent's and grandparent's children, marked `geometry`.
 */
export function nameFieldsFromLayout(root: LaidOut): void {
  const visit = (node: LaidOut, parent: LaidOut | undefined, grandparent: LaidOut | undefined): void => {
    if (GUESSED_ROLES.has(node.role) && node.name.trim() === '' && node.bounds !== undefined && parent !== undefined) {
      const scope = [...(grandparent?.children ?? [parent]).flatMap((each) => [each, ...(each.children ?? [])])];
      const labels = scope.flatMap((each) =>
        each !== node && each.role === 'label' && each.bounds !== undefined && (each.children ?? []).length === 0
          ? [{ name: each.name, bounds: each.bounds }]
          : [],
      );
      const name = nearestLabel(node.bounds, labels);
      if (name !== undefined) {
        node.name = name;
        node.nameFrom = 'geometry';
      }
    }
    for (const child of node.children ?? []) visit(child, node, parent);
  };
  visit(root, undefined, undefined);
}

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

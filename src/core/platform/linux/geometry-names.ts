import type { Bounds, Role } from '../../../shared/ui-node';
import { GUESSED_ROLES, nearestLabel, type PlacedLabel } from '../../ui/infer-names';
import { isUnnamed, type NamedItem, type NameFix } from './relation-names';

export interface Layout {
  /** A node's parent path, undefined at the root. */
  parentOf(path: string): string | undefined;
  childrenOf(path: string): readonly string[];
  extentsOf(path: string): Promise<Bounds | undefined>;
  roleOf(item: NamedItem): Role;
}

/**
 * Names still-unnamed fields after the nearest label beside or above them (ui/infer-names.ts),
 * marked `geometry` so a model can tell the guess from a fact. It looks only at labels under
 * the field's parent and grandparent, where forms put them, so it reads a handful of extents.
 */
export async function geometryNames(
  items: ReadonlyMap<string, NamedItem>,
  paths: readonly string[],
  fixes: Map<string, NameFix>,
  layout: Layout,
): Promise<void> {
  const unnamed = paths.filter((path) => {
    const item = items.get(path);
    return item !== undefined && GUESSED_ROLES.has(layout.roleOf(item)) && isUnnamed(item.name) && (fixes.get(path)?.name ?? '') === '';
  });
  await Promise.all(
    unnamed.map(async (path) => {
      const labels = nearbyLabels(items, path, layout);
      if (labels.length === 0) return;
      const [field, ...placed] = await Promise.all([layout.extentsOf(path), ...labels.map((label) => layout.extentsOf(label))]);
      if (field === undefined) return;
      const candidates: PlacedLabel[] = labels.flatMap((label, index) => {
        const bounds = placed[index];
        return bounds === undefined ? [] : [{ name: items.get(label)?.name ?? '', bounds }];
      });
      const name = nearestLabel(field, candidates);
      if (name !== undefined) fixes.set(path, { ...fixes.get(path), name, nameFrom: 'geometry' } as NameFix);
    }),
  );
}

/** Label leaves among the field's siblings and its parent's siblings' children. */
function nearbyLabels(items: ReadonlyMap<string, NamedItem>, path: string, layout: Layout): string[] {
  const parent = layout.parentOf(path);
  if (parent === undefined) return [];
  const grandparent = layout.parentOf(parent);
  const scope = grandparent === undefined ? [parent] : layout.childrenOf(grandparent);
  const found: string[] = [];
  for (const container of scope) {
    for (const child of [container, ...layout.childrenOf(container)]) {
      const item = items.get(child);
      if (item !== undefined && child !== path && layout.roleOf(item) === 'label' && item.name.trim() !== '' && layout.childrenOf(child).length === 0)
        found.push(child);
    }
  }
  return [...new Set(found)];
}

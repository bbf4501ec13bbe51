import type { UiNode } from '../../shared/ui-node';
import type { Locator, WindowLocator } from './schema';
import { placesOf, relativeBounds, type Place } from './tree-places';

/** The window locator of a window node: its role and its title as it was. */
export function windowLocator(window: UiNode): WindowLocator {
  return { role: window.role === 'dialog' ? 'dialog' : 'window', title: window.name };
}

/** The locator for a node as a recording saw it, from its place in the tree. */
export function locatorOf(place: Place): Locator {
  const { node, window } = place;
  const bounds = relativeBounds(node, window);
  return {
    ...(window === undefined ? {} : { window: windowLocator(window) }),
    role: node.role,
    name: node.name,
    ...(node.nameFrom === undefined ? {} : { nameFrom: node.nameFrom }),
    ...(node.toolkitId === undefined || node.toolkitId === '' ? {} : { toolkitId: node.toolkitId }),
    path: place.path,
    // Only when the recording saw identical siblings: an ordinal without them would be a guess later.
    ...(place.twin.of > 1 ? { ordinal: { ...place.twin } } : {}),
    ...(bounds === undefined ? {} : { bounds }),
  };
}

/** The locator for the node with this id, or undefined when the tree does not hold it. */
export function locateById(root: UiNode, id: string): Locator | undefined {
  const place = placesOf(root).find((each) => each.node.id === id);
  return place === undefined ? undefined : locatorOf(place);
}

/** `button "Save" in window "Untitled - Mousepad"`, for plans and reports. */
export function describeLocator(locator: Locator): string {
  const where = locator.window === undefined ? '' : ` in ${locator.window.role} ${JSON.stringify(locator.window.titlePattern ?? locator.window.title ?? '')}`;
  const nth = locator.ordinal === undefined ? '' : ` (#${locator.ordinal.index + 1} of ${locator.ordinal.of})`;
  return `${locator.role} ${JSON.stringify(locator.name)}${nth}${where}`;
}

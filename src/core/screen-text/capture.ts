import { PermissionDeniedError } from '../../shared/errors';
import type { RawNode } from '../ui/ids';
import type { WindowImage } from '../platform/types';
import { paintBlack } from '../platform/window-image';
import { walk } from '../ui/tree-index';

/**
 * Paints every secret field (a password) of the tree black in the window image, before the
 * image goes anywhere: to OCR, to a model or to a file. A secret field that is showing but
 * whose place the tree cannot give stops the capture, since nothing would hide it.
 */
export function blackOutSecrets(image: WindowImage, tree: RawNode): void {
  for (const node of walk(tree)) {
    if (node.states.secret !== true || node.states.visible === false) continue;
    if (node.bounds === undefined) {
      throw new PermissionDeniedError(`the window has a password field ("${node.name}") whose place on screen is unknown, so it is not captured`);
    }
    paintBlack(image, node.bounds);
  }
}

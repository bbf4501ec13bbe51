import type { Pointer } from '../../../../native/macos';
import { NodeNotFoundError } from '../../../shared/errors';
import type { AxClient } from './ax-client';
import { SECURE_SUBROLE } from './roles';
import type { MacRef } from './tree-walk';
import { findWindow } from './window-key';

/**
 * Finds a node again from its path: its window by the window's key (window-key.ts: AXWindows is
 * in stacking order, so the path's first index is where the window was when the tree was read,
 * not where it is now), then one ranged copy of a single child per step (cheap even in a huge
 * list), then a check that the element still has the role it had. Returns an owned element; a
 * window that is gone and a different role at that position are "node not found", never a
 * silent act on another element.
 */
export async function resolveElement(client: AxClient, ref: MacRef): Promise<Pointer> {
  const { cf } = client;
  let current = client.application(ref.pid);
  try {
    for (const [depth, index] of ref.path.entries()) {
      if (depth === 0 && ref.window !== undefined) {
        const window = await findWindow(client, current, ref.pid, ref.window);
        cf.release(current);
        current = window;
        continue;
      }
      const page = await client.copyRange(current, depth === 0 ? 'AXWindows' : 'AXChildren', index, 1, ref.pid);
      if (page === undefined) throw gone(ref);
      // The item is borrowed from the page; retain it before the page is released.
      const child = cf.ownedSync(page, (page) => {
        const item = Number(cf.native.CFArrayGetCount(page)) > 0 ? cf.native.CFArrayGetValueAtIndex(page, 0) : null;
        return item === null ? null : cf.native.CFRetain(item);
      });
      if (child === null) throw gone(ref);
      cf.release(current);
      current = child;
    }
    const role = await client.copy(current, 'AXRole', ref.pid);
    const axRole = role === undefined ? '' : cf.ownedSync(role, (role) => cf.toJs(role));
    if (axRole !== ref.axRole) {
      throw new NodeNotFoundError(`node not found: the element at that position is now ${String(axRole) || 'roleless'}, not ${ref.axRole}`);
    }
    return current;
  } catch (error) {
    cf.release(current);
    throw error;
  }
}

/** Runs `work` on the node's live element and releases it afterwards. */
export async function withElement<T>(client: AxClient, ref: MacRef, work: (element: Pointer) => Promise<T>): Promise<T> {
  return client.cf.owned(await resolveElement(client, ref), work);
}

function gone(ref: MacRef): NodeNotFoundError {
  return new NodeNotFoundError(`node not found: pid ${ref.pid} has no element at [${ref.path.join(', ')}] any more`);
}

/**
 * Whether the element is a secure field now, asked at action time: the tree was read earlier,
 * and a page can put a password field where a text field was (a web login step) with the same
 * role at the same path. A subrole that cannot be read counts as secure, as in the tree walk.
 */
export async function secureNow(client: AxClient, element: Pointer, pid: number): Promise<boolean> {
  const { cf } = client;
  try {
    const role = await client.copy(element, 'AXRole', pid);
    if (role !== undefined && cf.ownedSync(role, (role) => cf.toJs(role)) === SECURE_SUBROLE) return true;
    const subrole = await client.copy(element, 'AXSubrole', pid);
    return subrole !== undefined && cf.ownedSync(subrole, (subrole) => cf.toJs(subrole)) === SECURE_SUBROLE;
  } catch {
    return true;
  }
}

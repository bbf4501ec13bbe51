import type { Platform } from '../platform/types';
import { buildTree } from '../ui/ids';
import { roleFilter, type Match } from '../ui/query';

export interface QuickFindQuery {
  role?: string | undefined;
  name?: string | undefined;
  text?: string | undefined;
  description?: string | undefined;
  limit: number;
}

/**
 * A search the app answers without a tree read (AT-SPI Collection), as nodes with the ids the
 * whole tree gives them; undefined sends the caller to the tree. Only role and name are
 * asked so, and only exact name matches come back: text and descriptions need the tree's
 * values, and a near match, or none, is for the tree to decide (a control named by its label
 * has no name of its own to match).
 */
export async function quickFind(platform: Pick<Platform, 'accessibility'>, pid: number, query: QuickFindQuery): Promise<Match[] | undefined> {
  const { accessibility } = platform;
  if (accessibility.findNodes === undefined || query.text !== undefined || query.description !== undefined) return undefined;
  if (query.role === undefined && query.name === undefined) return undefined;
  let roles: ReturnType<typeof roleFilter>['roles'] | undefined;
  try {
    roles = query.role === undefined ? undefined : roleFilter(query.role).roles;
  } catch {
    return undefined; // a raw platform role ("push button") or a typo: the tree matches it or says which roles there are
  }
  if (roles !== undefined && roles.size === 0) return undefined;
  const found = await accessibility.findNodes(pid, {
    ...(roles === undefined ? {} : { roles }),
    ...(query.name === undefined ? {} : { name: query.name }),
    limit: query.limit,
  });
  if (found === undefined || found.length === 0) return undefined;
  return found.map(({ node, slot, score }) => ({ node: buildTree(node, slot).root, score }));
}

import type { Role } from '../../../shared/ui-node';
import type { QuickQuery } from '../types';
import { ACTIONABLE_ROLES } from '../../ui/serialize';

/** The roles that name a part of a page or document from its content: what a person names to go to. */
const HEADING_ROLES: ReadonlySet<Role> = new Set<Role>(['heading']);

/**
 * The roles a name alone is looked for in, in turn, before every role: first what a model
 * names to act on, then headings. The first tier with an exact match answers; the rest of the
 * app (its cells and texts, most of a page) is not asked. Shared by the Collection search and
 * the mirror's, so both give the same match. Measured on a 20,000-node Chromium page
 * (bench/chromium-calls.ts, load ~10): GetMatches for every role took 835 ms of which 720 ms
 * Chromium's CPU (17,016 refs), and a Name each for them 2 s more; for headings, 38 ms (35 refs).
 */
export const NAME_TIERS: readonly ReadonlySet<Role>[] = [ACTIONABLE_ROLES, HEADING_ROLES];

/**
 * The role sets a query is searched in, in turn: for a name alone the tiers, then every role;
 * otherwise the query's roles (undefined is every role). The first set with an exact match answers.
 */
export function tiersOf(query: QuickQuery): readonly (ReadonlySet<Role> | undefined)[] {
  const nameOnly = query.name !== undefined && (query.roles === undefined || query.roles.size === 0);
  return nameOnly ? [...NAME_TIERS, undefined] : [query.roles];
}

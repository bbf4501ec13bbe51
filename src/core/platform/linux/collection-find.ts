import { IFACE, NULL_PATH, ROLE, ROOT_PATH, type ObjectRef } from '../../../../native/linux/atspi';
import type { Role } from '../../../shared/ui-node';
import { slotKey } from '../../ui/ids';
import { EXACT_SCORE } from '../../ui/read-cut';
import { MIN_SCORE, textScore } from '../../ui/query';
import type { QuickMatch, QuickQuery } from '../types';
import type { AtspiClient, AtspiRef } from './client';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import { mapLimit } from './pool';
import { isAppGone } from './read-crash';
import { normalizeRole } from './roles';
import { COLLECTION, RULE, SORT_CANONICAL, bitWords, matchRule } from './collection-rule';
import { tiersOf } from './find-tiers';
import { capabilities, roleNeedsStates, roleOf, statesOf, type AppTarget, type Item } from './tree-fetch';

/** Calls in flight at once, as a tree read pipelines them. */
const CONCURRENCY = 48;
/**
 * Matches named per batch, in document order: a batch that completes the limit with perfect
 * matches ends the search, since nothing later can rank above them. The first batch is small and
 * each next one twice the last, up to the largest: a control near the top of a 2,900-button page
 * costs 64 Name reads, not 1,024, and a long search drains the pipeline only a few times.
 */
const FIRST_NAME_BATCH = 64;
const NAME_BATCH = 1024;
/** Levels a chain of parents may climb: a loop in an app's parents must still end. */
const MAX_DEPTH = 256;
/** Every numeric AT-SPI role up to ROLE_LAST_DEFINED, for mapping normalized roles back. */
const ROLE_NUMBERS = Array.from({ length: 130 }, (_unused, index) => index);

/** The AT-SPI role numbers a query's roles stand for. */
function roleNumbers(roles: ReadonlySet<Role>): number[] {
  const numbers = ROLE_NUMBERS.filter((number) => roles.has(normalizeRole(number)));
  // GTK 4's single-line entries have TEXT's role: a textfield query asks for it too (roleOf tells them apart).
  if (roles.has('textfield')) numbers.push(ROLE.TEXT);
  return numbers;
}

/** The rule's role set: a bit per AT-SPI role number, in four signed 32-bit words. */
export function roleBits(roles: ReadonlySet<Role>): number[] {
  return bitWords(roleNumbers(roles), 4);
}

/** A rule for the roles (all of them for none). */
function rolesRule(roles: ReadonlySet<Role> | undefined): unknown[] {
  return matchRule(roles === undefined || roles.size === 0 ? {} : { roles: roleNumbers(roles) });
}

interface Scored {
  path: string;
  name: string;
  score: number;
}

/** What one node is, read once and shared by every chain that passes it. */
interface Facts {
  role: number;
  states: number[];
}

/**
 * Finds nodes through Collection.GetMatches: one call for every node of the asked roles in
 * document order (for a name alone, the tiers of find-tiers.ts first, and every role only when
 * none of those has the name), then one Name each, scored as the tree's search scores them. Only exact
 * matches are placed (a near match may be a node the tree names from its label): for each,
 * the chain of parents up to the app and each level's same-role index give the slot the
 * whole tree gives it, so its id is the tree's. Undefined when the app did not answer or a
 * chain did not lead to the app: the caller reads the tree.
 */
export async function collectionFind(client: AtspiClient, app: AppTarget, query: QuickQuery): Promise<QuickMatch[] | undefined> {
  try {
    return await find(client, app, query);
  } catch (error) {
    // A node that went away mid-search sends the caller to the tree; a frozen or gone app is the answer.
    if (error instanceof DbusTimeoutError || isAppGone(error)) throw error;
    return undefined;
  }
}

async function find(client: AtspiClient, app: AppTarget, query: QuickQuery): Promise<QuickMatch[] | undefined> {
  const { bus } = app;
  const names = new Map<string, string>();
  const matches = async (roles: ReadonlySet<Role> | undefined, count: number): Promise<ObjectRef[]> =>
    ((await client.call([bus, ROOT_PATH], COLLECTION, 'GetMatches', `${RULE}uib`, [rolesRule(roles), SORT_CANONICAL, count, true])) as [ObjectRef[]])[0];
  const exactOf = async (roles: ReadonlySet<Role> | undefined): Promise<Scored[] | undefined> => {
    let refs: ObjectRef[];
    try {
      if (query.name === undefined) {
        // Without a name, the first matches in document order answer: the bridge stops at `count` (one ref
        // past the limit, for the app's own root), not at every button of the page (2,899 on 20,000 nodes).
        // Fewer of the app's own than asked: all of them, since the count may have held foreign refs.
        const count = query.limit + 1;
        refs = await matches(roles, count);
        if (refs.length === count && refs.filter((ref) => ref[0] === bus && ref[1] !== ROOT_PATH).length < query.limit) refs = await matches(roles, 0);
      } else refs = await matches(roles, 0);
    } catch (error) {
      // Every role is one call whose time grows with the page (2.5 s for 17,000 refs on a 20,000-node
      // Chromium page at load 16, past the call timeout): its timeout sends the caller to the tree, whose
      // calls are small and say whether the app is frozen. A one-role call timing out is the app's.
      const everyRole = roles === undefined || roles.size === 0;
      if ((error instanceof DbusTimeoutError && !everyRole) || isAppGone(error)) throw error;
      return undefined;
    }
    const own = refs.filter((ref) => ref[0] === bus && ref[1] !== ROOT_PATH);
    // Without a name to match, the first matches in document order are all that is named (the id holds the name).
    const asked = query.name === undefined ? own.slice(0, query.limit) : own;
    const named: Scored[] = [];
    let perfect = 0;
    for (let start = 0, size = FIRST_NAME_BATCH; start < asked.length && perfect < query.limit; start += size, size = Math.min(size * 2, NAME_BATCH)) {
      const batch = await mapLimit(asked.slice(start, start + size), CONCURRENCY, async (ref) => {
        const name = names.get(ref[1]) ?? String((await client.property(ref, IFACE.accessible, 'Name')) ?? '').trim();
        names.set(ref[1], name);
        return { path: ref[1], name, score: query.name === undefined ? 1 : textScore(query.name, name) };
      });
      named.push(...batch);
      perfect += batch.filter((each) => each.score === 1).length;
    }
    // Best first, document order among equals, as the tree's search ranks them.
    return named
      .filter((each) => each.score >= Math.max(EXACT_SCORE, MIN_SCORE))
      .sort((a, b) => b.score - a.score)
      .slice(0, query.limit);
  };
  let exact: Scored[] | undefined = [];
  for (const tier of tiersOf(query)) {
    exact = await exactOf(tier);
    if (exact === undefined || exact.length > 0) break;
  }
  if (exact === undefined) return undefined;
  const place = placer(client, app);
  const placed = await Promise.all(exact.map(async (each) => ({ each, slot: await place.slot(each.path) })));
  if (placed.some(({ slot }) => slot === undefined)) return undefined;
  return Promise.all(
    placed.map(async ({ each, slot }) => {
      const [facts, [interfaces]] = await Promise.all([place.facts(each.path), client.call([bus, each.path], IFACE.accessible, 'GetInterfaces')]);
      const item = { ...facts, interfaces: interfaces as string[] } as Item;
      const ref: AtspiRef = { pid: app.pid, bus, path: each.path, interfaces: item.interfaces, role: item.role, gtk4: app.gtk4 };
      const node = {
        ref,
        role: roleOf(item),
        platformRole: `atspi:${item.role}`,
        name: each.name,
        states: statesOf(item, app.gtk4),
        actions: capabilities(item),
      };
      return { node, slot: slot as QuickMatch['slot'], score: each.score };
    }),
  );
}

/** Works out where nodes sit, caching parents, children lists and facts across the chains of one search. */
function placer(client: AtspiClient, app: AppTarget) {
  const { bus } = app;
  const parents = new Map<string, Promise<string | undefined>>();
  const lists = new Map<string, Promise<string[]>>();
  const facts = new Map<string, Promise<Facts>>();
  const parentOf = (path: string): Promise<string | undefined> => {
    let found = parents.get(path);
    if (found === undefined) {
      found = client.property([bus, path], IFACE.accessible, 'Parent').then((parent) => {
        const [owner, parentPath] = (parent ?? []) as Partial<ObjectRef>;
        return owner === bus && parentPath !== undefined && parentPath !== NULL_PATH ? parentPath : undefined;
      });
      parents.set(path, found);
    }
    return found;
  };
  const childrenOf = (path: string): Promise<string[]> => {
    let found = lists.get(path);
    if (found === undefined) {
      found = client.call([bus, path], IFACE.accessible, 'GetChildren').then(([refs]) => (refs as ObjectRef[]).map((ref) => ref[1]));
      lists.set(path, found);
    }
    return found;
  };
  const factsOf = (path: string): Promise<Facts> => {
    let found = facts.get(path);
    if (found === undefined) {
      found = Promise.all([client.call([bus, path], IFACE.accessible, 'GetRole'), client.call([bus, path], IFACE.accessible, 'GetState')]).then(
        ([[role], [states]]) => ({ role: Number(role), states: states as number[] }),
      );
      facts.set(path, found);
    }
    return found;
  };
  const roles = new Map<string, Promise<Role>>();
  /**
   * A node's role as the tree gives it: its states only where they decide it (a single-line
   * text area is a textfield), so placing a match past 170 rows of a 20,000-node Chromium page
   * asks 170 GetRole, not 170 GetRole and 170 GetState.
   */
  const roleAt = (path: string): Promise<Role> => {
    let found = roles.get(path);
    if (found === undefined) {
      const known = facts.get(path);
      found = (
        known === undefined
          ? client.call([bus, path], IFACE.accessible, 'GetRole').then(async ([answer]): Promise<Facts> => {
              const role = Number(answer);
              if (!roleNeedsStates(role)) return { role, states: [] };
              const [states] = await client.call([bus, path], IFACE.accessible, 'GetState');
              return { role, states: states as number[] };
            })
          : known
      ).then(roleOf);
      roles.set(path, found);
    }
    return found;
  };
  /** The node's index among the children of its parent that share its role, as ids count it. */
  const roleIndex = async (parent: string, path: string): Promise<number | undefined> => {
    const siblings = await childrenOf(parent);
    const at = siblings.indexOf(path);
    if (at < 0) return undefined;
    // The node's own facts are read whole: its match needs its states anyway.
    const [own, before] = await Promise.all([factsOf(path).then(roleOf), mapLimit(siblings.slice(0, at), CONCURRENCY, roleAt)]);
    return before.filter((role) => role === own).length;
  };
  return {
    facts: factsOf,
    async slot(path: string): Promise<{ parentSlot: string; roleIndex: number } | undefined> {
      const chain = [path];
      for (let depth = 0; chain[0] !== ROOT_PATH; depth += 1) {
        const parent = depth < MAX_DEPTH ? await parentOf(chain[0] as string) : undefined;
        if (parent === undefined || chain.includes(parent)) return undefined;
        chain.unshift(parent);
      }
      // The app's root is the tree's root: role application, index 0, below the empty slot.
      const indices = await Promise.all(chain.slice(1).map((each, level) => roleIndex(chain[level] as string, each)));
      if (indices.some((index) => index === undefined)) return undefined;
      let parentSlot = slotKey('', 'application', 0);
      for (let level = 1; level < chain.length - 1; level += 1)
        parentSlot = slotKey(parentSlot, await roleAt(chain[level] as string), indices[level - 1] as number);
      return { parentSlot, roleIndex: indices.at(-1) as number };
    },
  };
}

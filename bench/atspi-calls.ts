import { AtspiClient } from '../src/core/platform/linux/client';

/**
 * Counts every D-Bus call any AtspiClient makes from now on, by member (`GetRole`, `Get Name`
 * for a property, `GetAll` for picked properties, each call of a group by its member), for the benches' calls-per-node figures.
 * Clear the map between measures.
 */
export function countAtspiCalls(): Map<string, number> {
  const calls = new Map<string, number>();
  // A client from before `properties` existed (a --base copy) has no such method: nothing to count there.
  for (const method of ['call', 'property', 'properties'] as const) {
    const original = AtspiClient.prototype[method] as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (original === undefined) continue;
    (AtspiClient.prototype as unknown as Record<string, unknown>)[method] = function (this: AtspiClient, ...args: unknown[]) {
      const member = method === 'call' ? String(args[2]) : method === 'properties' ? 'GetAll' : `Get ${String(args[2])}`;
      calls.set(member, (calls.get(member) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
  // Calls sent as a group (a node's read): each counted by its member.
  const group = AtspiClient.prototype.callGroup as ((...args: unknown[]) => Promise<unknown[]>) | undefined;
  if (group !== undefined)
    AtspiClient.prototype.callGroup = function (this: AtspiClient, ...args: unknown[]) {
      for (const call of args[1] as { member: string }[]) calls.set(call.member, (calls.get(call.member) ?? 0) + 1);
      return group.apply(this, args);
    };
  return calls;
}

/** All calls counted, whatever their member. */
export function totalCalls(calls: ReadonlyMap<string, number>): number {
  return [...calls.values()].reduce((sum, count) => sum + count, 0);
}

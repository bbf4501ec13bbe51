import { AtspiClient } from '../src/core/platform/linux/client';

/**
 * Counts every D-Bus call any AtspiClient makes from now on, by member (`GetRole`, `Get Name`
 * for a property), for the benches' calls-per-node figures. Clear the map between measures.
 */
export function countAtspiCalls(): Map<string, number> {
  const calls = new Map<string, number>();
  for (const method of ['call', 'property'] as const) {
    const original = AtspiClient.prototype[method] as (...args: unknown[]) => Promise<unknown>;
    (AtspiClient.prototype as unknown as Record<string, unknown>)[method] = function (this: AtspiClient, ...args: unknown[]) {
      const member = method === 'call' ? String(args[2]) : `Get ${String(args[2])}`;
      calls.set(member, (calls.get(member) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
  return calls;
}

/** All calls counted, whatever their member. */
export function totalCalls(calls: ReadonlyMap<string, number>): number {
  return [...calls.values()].reduce((sum, count) => sum + count, 0);
}

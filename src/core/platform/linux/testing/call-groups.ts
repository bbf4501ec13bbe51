/**
 * A stand-in client (tests pass plain objects with `call` and `property`) with the real
 * client's callGroup built on its `call`, so the grouped node reads (tree-items.ts' readNodes)
 * run against the same answers as the call-by-call ones: each slot the reply's body, a
 * property's value or the picked properties' values, or the Error its call failed with.
 */
import type { MethodCall, Reading } from '../../../../../native/linux/dbus';
import type { AtspiClient } from '../client';

type CallingClient = Pick<AtspiClient, 'call'>;

export function withCallGroups<Client extends CallingClient>(client: Client): Client & Pick<AtspiClient, 'callGroup'> {
  const callGroup = (_bus: string, calls: readonly MethodCall[], readings: readonly Reading[]): Promise<unknown[]> =>
    Promise.all(
      calls.map((call, slot) =>
        client.call([call.destination, call.path], call.interface, call.member, call.signature, call.body).then(
          (body) => {
            const reading = readings[slot] ?? 'body';
            if (reading === 'body') return body;
            if (reading === 'unwrap') return (body[0] as { value?: unknown } | undefined)?.value;
            return reading.names.map((name) => (body[0] as Record<string, { value?: unknown } | undefined>)[name]?.value);
          },
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        ),
      ),
    );
  return Object.assign(Object.create(client) as Client, { callGroup });
}

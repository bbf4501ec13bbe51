/**
 * A fake AT-SPI client made whole from a stand-in (tests and bench/tail-cpu.ts pass plain objects
 * with `call` and `property`): the real client's callGroup and properties built on its `call`, so
 * the grouped node reads (tree-items.ts' readNodes) and picked GetAlls run against the same
 * answers as the call-by-call ones; connectDirect, which has no peer to open (its calls go on
 * through `call`); and `callByCall` as the stand-in says, false unless it says otherwise.
 */
import type { ObjectRef } from '../../../../../native/linux/atspi';
import type { MethodCall, PropertyPick, Reading } from '../../../../../native/linux/dbus';
import type { AtspiClient } from '../client';

type CallingClient = Pick<AtspiClient, 'call'> & Partial<Pick<AtspiClient, 'callByCall'>>;
type Whole = Pick<AtspiClient, 'callGroup' | 'properties' | 'connectDirect' | 'callByCall'>;

const PROPERTIES = 'org.freedesktop.DBus.Properties';

/** The values of the properties a pick names, as the real client reads them out of a GetAll reply's body. */
function picked(body: unknown[], pick: PropertyPick): unknown[] {
  return pick.names.map((name) => (body[0] as Record<string, { value?: unknown } | undefined>)[name]?.value);
}

export function fakeAtspiClient<Client extends CallingClient>(client: Client): Client & Whole {
  // Methods on `this`: they ask the `call` of the object they are called on, so a test that wraps
  // call afterwards (on this fake, or on an object made from it) wraps every path.
  const whole: Whole = {
    callGroup(this: CallingClient, _bus: string, calls: readonly MethodCall[], readings: readonly Reading[]): Promise<unknown[]> {
      return Promise.all(
        calls.map((call, slot) =>
          this.call([call.destination, call.path], call.interface, call.member, call.signature, call.body).then(
            (body) => {
              const reading = readings[slot] ?? 'body';
              if (reading === 'body') return body;
              if (reading === 'unwrap') return (body[0] as { value?: unknown } | undefined)?.value;
              return picked(body, reading);
            },
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          ),
        ),
      );
    },
    async properties(this: CallingClient, target: ObjectRef, iface: string, pick: PropertyPick): Promise<unknown[]> {
      return picked(await this.call(target, PROPERTIES, 'GetAll', 's', [iface]), pick);
    },
    connectDirect: () => Promise.resolve(),
    callByCall: client.callByCall ?? false,
  };
  return Object.assign(Object.create(client) as Client, whole);
}

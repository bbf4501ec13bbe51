import { describe, expect, it } from 'vitest';
import { ROOT_PATH } from '../../../../native/linux/atspi';
import { DbusTimeoutError } from '../../../../native/linux/dbus';
import type { AtspiClient } from './client';
import { awaitPageNames } from './late-names';

/**
 * A client with the given web documents, each holding `probes` name-bearing nodes, whose names
 * answer "" for their first `blankAsks` rounds (as Gecko's do before the page sends them).
 */
function fakeClient(documents: string[], probes: number, blankAsks: number) {
  const counts = { matches: 0, names: 0, primed: [] as string[] };
  const client = {
    call: async (ref: [string, string], _iface: string, method: string) => {
      if (method === 'GetExtents') {
        counts.primed.push(`extents ${ref[1]}`);
        return [[-1, -1, -1, -1]];
      }
      counts.matches += 1;
      if (ref[1] === ROOT_PATH) return [documents.map((path) => [':1.5', path])];
      // Another app's node in the answer is never asked.
      return [[...Array.from({ length: probes }, (_each, index) => [':1.5', `${ref[1]}/${index}`]), [':1.9', '/other']]];
    },
    property: async (ref: [string, string], _iface: string, name: string) => {
      if (ref[0] !== ':1.5') throw new Error(`asked another app: ${ref.join(' ')}`);
      if (name === 'NActions') {
        counts.primed.push(`actions ${ref[1]}`);
        return 0;
      }
      counts.names += 1;
      return counts.names > blankAsks * documents.length * probes ? 'A link' : '';
    },
  } as unknown as AtspiClient;
  return { client, counts };
}

const noWait = { pause: async () => {} };

describe('awaitPageNames', () => {
  it('asks each document’s first links and headings until one is named, then never again for that client and app', async () => {
    const { client, counts } = fakeClient(['/doc/1', '/doc/2'], 2, 3);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    // Three blank rounds of 2 documents × 2 probes, then one named round.
    expect(counts.names).toBe(16);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(counts).toMatchObject({ matches: 3, names: 16 });
  });

  it('asks each document’s first probe for its actions and extents once, so Gecko sends them before an action needs them', async () => {
    const { client, counts } = fakeClient(['/doc/1', '/doc/2'], 2, 1);
    await awaitPageNames(client, ':1.5', noWait);
    await awaitPageNames(client, ':1.5', noWait);
    expect(counts.primed.sort()).toEqual(['actions /doc/1/0', 'actions /doc/2/0', 'extents /doc/1/0', 'extents /doc/2/0']);
  });

  it('asks the actions and extents in the round trip of the first names, not one of their own before it', async () => {
    const { client, counts } = fakeClient(['/doc/1'], 1, 0);
    const events: string[] = [];
    let answerExtents: () => void = () => undefined;
    const call = client.call.bind(client);
    const property = client.property.bind(client);
    // The extents are answered only once a name was asked: a wait that held the names back for them would never end.
    Object.assign(client, {
      call: async (...args: Parameters<AtspiClient['call']>) => {
        if (args[2] !== 'GetExtents') return call(...args);
        events.push('extents asked');
        await new Promise<void>((resolve) => (answerExtents = resolve));
        events.push('extents answered');
        return call(...args);
      },
      property: async (...args: Parameters<AtspiClient['property']>) => {
        if (args[2] === 'Name') {
          events.push('name asked');
          answerExtents();
        }
        return property(...args);
      },
    });
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(events).toEqual(['extents asked', 'name asked', 'extents answered']);
    expect(counts.primed.sort()).toEqual(['actions /doc/1/0', 'extents /doc/1/0']);
  });

  it('gives a frozen app’s error on the early facts as its answer, and no unhandled rejection while the names are awaited', async () => {
    const { client } = fakeClient(['/doc/1'], 1, 2);
    const call = client.call.bind(client);
    const frozen = new DbusTimeoutError({ destination: ':1.5', path: '/doc/1/0', interface: 'x', member: 'GetExtents' }, 1);
    Object.assign(client, {
      call: async (...args: Parameters<AtspiClient['call']>) => (args[2] === 'GetExtents' ? Promise.reject(frozen) : call(...args)),
    });
    // A real pause between the rounds: Node judges a rejection unhandled once the tasks queued before it have run.
    const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
    await expect(awaitPageNames(client, ':1.5', { pause })).rejects.toBe(frozen);
  });

  it('stops asking after a bound when a page’s nodes stay unnamed', async () => {
    const { client, counts } = fakeClient(['/doc/1'], 1, Infinity);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(counts.names).toBe(12);
  });

  it('does not wait on a document with no links, headings or buttons', async () => {
    const { client, counts } = fakeClient(['/doc/1'], 0, Infinity);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(counts.names).toBe(0);
  });

  it('asks again on the next read while the app has no page yet', async () => {
    const { client, counts } = fakeClient([], 0, 0);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(counts.matches).toBe(2);
  });
});

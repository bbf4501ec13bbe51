import { describe, expect, it } from 'vitest';
import type { AtspiClient } from './client';
import { awaitPageNames } from './late-names';

/** A client whose documents answer "" for their first `blankAsks` Name asks. */
function fakeClient(documents: string[], blankAsks: number) {
  const counts = { matches: 0, names: 0 };
  const client = {
    call: async () => {
      counts.matches += 1;
      return [documents.map((path) => [':1.5', path])];
    },
    property: async () => {
      counts.names += 1;
      return counts.names > blankAsks * documents.length ? 'A page' : '';
    },
  } as unknown as AtspiClient;
  return { client, counts };
}

const noWait = { pause: async () => {} };

describe('awaitPageNames', () => {
  it('asks a page’s documents until they are named, then never again for that client and app', async () => {
    const { client, counts } = fakeClient(['/doc/1', '/doc/2'], 3);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(counts.names).toBe(8);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(counts).toEqual({ matches: 1, names: 8 });
  });

  it('stops asking after a bound when a page has no title', async () => {
    const { client, counts } = fakeClient(['/doc/1'], Infinity);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(counts.names).toBe(12);
  });

  it('asks again on the next read while the app has no page yet', async () => {
    const { client, counts } = fakeClient([], 0);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(counts.matches).toBe(2);
  });
});

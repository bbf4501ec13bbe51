import { describe, expect, it } from 'vitest';
import type { AtspiClient } from './client';
import { pressActionIndex } from './action-names';

/** A client that answers the Action interface the way a toolkit does. */
function client(actions: unknown, names: string[] = []): { client: AtspiClient; calls: string[] } {
  const calls: string[] = [];
  const fake = {
    call: (_object: unknown, _iface: string, member: string, _signature?: string, body?: unknown[]) => {
      calls.push(member);
      if (member === 'GetActions') return Promise.resolve([actions]);
      if (member === 'GetName') return Promise.resolve([names[Number(body?.[0])] ?? '']);
      return Promise.reject(new Error(`unexpected ${member}`));
    },
    property: () => Promise.resolve(names.length),
  };
  return { client: fake as unknown as AtspiClient, calls };
}

describe('pressActionIndex', () => {
  it('finds the press among GTK names in one call', async () => {
    const { client: gtk, calls } = client([
      ['focus', '', ''],
      ['Click', 'Clicks the button', ''],
    ]);
    expect(await pressActionIndex(gtk, ['bus', '/path'])).toBe(1);
    expect(calls).toEqual(['GetActions']);
  });

  it("asks name by name when Gecko's list comes back garbled", async () => {
    const { client: gecko, calls } = client([[';;', ';;', ';;']], ['check']);
    expect(await pressActionIndex(gecko, ['bus', '/path'])).toBe(0);
    expect(calls).toEqual(['GetActions', 'GetName']);
  });

  it("asks name by name when Chromium's list comes back blank, and stops at the press", async () => {
    // Chromium 1xx answers GetActions with ["", "", ""] for each of "check" and "showContextMenu".
    const { client: chromium, calls } = client(
      [
        ['', '', ''],
        ['', '', ''],
      ],
      ['check', 'showContextMenu'],
    );
    expect(await pressActionIndex(chromium, ['bus', '/path'])).toBe(0);
    expect(calls).toEqual(['GetActions', 'GetName']);
    const second = client(
      [
        ['', '', ''],
        ['', '', ''],
      ],
      ['showContextMenu', 'doDefault'],
    );
    expect(await pressActionIndex(second.client, ['bus', '/path'])).toBe(1);
    expect(second.calls).toEqual(['GetActions', 'GetName', 'GetName']);
  });

  it('does not ask name by name when the list is well named and has no press', async () => {
    const { client: gtk, calls } = client([['showmenu', '', '']], ['click']);
    expect(await pressActionIndex(gtk, ['bus', '/path'])).toBe(-1);
    expect(calls).toEqual(['GetActions']);
  });

  it("takes Chromium's one unnamed action, and nothing from a list with no press", async () => {
    expect(await pressActionIndex(client([['', '', '']], ['']).client, ['bus', '/path'])).toBe(0);
    expect(await pressActionIndex(client([['showmenu', '', '']]).client, ['bus', '/path'])).toBe(-1);
    expect(await pressActionIndex(client('garbage').client, ['bus', '/path'])).toBe(-1);
  });
});

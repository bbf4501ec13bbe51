/**
 * A node's read (readNode) through the real client's call groups, against the same node read
 * call by call (a client's callByCall): the same item, the same parent, the same failures.
 */
import { describe, expect, it } from 'vitest';
import { IFACE, ROLE } from '../../../../native/linux/atspi';
import { DbusCallError, DbusTimeoutError, Variant, type MethodCall } from '../../../../native/linux/dbus';
import type { AtspiClient } from './client';
import { bridgeOf } from './bridges';
import { fakeAtspiClient } from './testing/fake-atspi-client';
import { readNode, readNodes } from './tree-items';

const SELF: [string, string] = [':1.4', '/org/a11y/atspi/accessible/12247'];
const CHROMIUM = bridgeOf('Chromium', '1.0');
const INTERFACES = [IFACE.accessible, IFACE.action, IFACE.component];
const ALL = {
  Parent: new Variant('(so)', [':1.4', '/org/a11y/atspi/accessible/12244']),
  Name: new Variant('s', 'Act 2383'),
  Description: new Variant('s', 'a button'),
  Attributes: new Variant('a{ss}', { tag: 'td' }),
  ChildCount: new Variant('i', 1),
};

type Answer = unknown[] | Error;

/** Answers by member (`Get Name` for a property): a stand-in client, and, with `groups`, one that reads through call groups rather than call by call. */
function fakeClient(answers: Record<string, Answer>, groups: boolean) {
  const asked: string[] = [];
  const answer = (member: string): Promise<unknown[]> => {
    asked.push(member);
    const value = answers[member] ?? new DbusCallError('org.freedesktop.DBus.Error.UnknownMethod', member, {} as MethodCall);
    return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  };
  const client = fakeAtspiClient({
    call: (_target: unknown, _iface: string, member: string) => answer(member),
    property: async (_target: unknown, _iface: string, name: string) => ((await answer(`Get ${name}`))[0] as Variant).value,
    callByCall: !groups,
  } as unknown as AtspiClient);
  return { client, asked };
}

const ANSWERS: Record<string, Answer> = {
  GetRole: [ROLE.PUSH_BUTTON],
  GetState: [[0x10000, 0]],
  GetInterfaces: [INTERFACES],
  GetAll: [ALL],
  'Get Name': [new Variant('s', 'Act 2383')],
  'Get Description': [new Variant('s', 'a button')],
  'Get ChildCount': [new Variant('i', 1)],
};

async function both(answers: Record<string, Answer>, known?: string[]) {
  const plain = fakeClient(answers, false);
  const grouped = fakeClient(answers, true);
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  return {
    plain: await settle(readNode(plain.client, SELF, 3, CHROMIUM, known)),
    grouped: await settle(readNode(grouped.client, SELF, 3, CHROMIUM, known)),
    asked: { plain: plain.asked, grouped: grouped.asked },
  };
}

describe("a node's read in one call group", () => {
  it('gives the item and parent the calls one by one give, and asks interfaces only when they are not known', async () => {
    const fresh = await both(ANSWERS);
    expect(fresh.grouped).toEqual(fresh.plain);
    expect(fresh.grouped).toMatchObject({
      value: {
        item: { name: 'Act 2383', role: ROLE.PUSH_BUTTON, childCount: 1, interfaces: INTERFACES, index: 3 },
        parent: '/org/a11y/atspi/accessible/12244',
      },
    });
    expect(fresh.asked.grouped.sort()).toEqual(['GetAll', 'GetInterfaces', 'GetRole', 'GetState']);
    const known = await both(ANSWERS, INTERFACES);
    expect(known.grouped).toEqual(known.plain);
    expect(known.asked.grouped.sort()).toEqual(['GetAll', 'GetRole', 'GetState']);
  });

  it('falls back to three Gets when GetAll fails or has no ChildCount, as before', async () => {
    for (const getAll of [new DbusCallError('org.freedesktop.DBus.Error.UnknownMethod', 'no', {} as MethodCall), [{ Name: new Variant('s', 'x') }]]) {
      const read = await both({ ...ANSWERS, GetAll: getAll });
      expect(read.grouped).toEqual(read.plain);
      expect(read.grouped).toMatchObject({ value: { item: { name: 'Act 2383', childCount: 1 }, parent: undefined } });
      expect(read.asked.grouped).toEqual(expect.arrayContaining(['Get Name', 'Get Description', 'Get ChildCount']));
    }
  });

  it('fails as the calls one by one fail: a gone node, and a frozen app (never a fallback)', async () => {
    const gone = new DbusCallError('org.freedesktop.DBus.Error.UnknownObject', 'gone', {} as MethodCall);
    const frozen = new DbusTimeoutError({} as MethodCall, 2000);
    for (const answers of [
      { ...ANSWERS, GetRole: gone },
      { ...ANSWERS, GetState: gone },
      { ...ANSWERS, GetInterfaces: gone },
      { ...ANSWERS, GetAll: frozen },
    ]) {
      const read = await both(answers);
      expect(read.grouped).toEqual(read.plain);
      expect('error' in read.grouped).toBe(true);
      expect(read.asked.grouped).not.toContain('Get Name');
    }
  });

  it("sends a batch's fallback Gets together, as node-by-node reads sent them, not one node after another", async () => {
    // GetAll answered without ChildCount for every node: each needs its three Gets. Read node by
    // node, all sixteen nodes' Gets were out at once; a frozen app then cost one timeout, not sixteen.
    const grouped = fakeClient({ ...ANSWERS, GetAll: [{ Name: new Variant('s', 'x') }] }, true);
    const held: (() => void)[] = [];
    const property = grouped.client.property.bind(grouped.client);
    (grouped.client as { property: AtspiClient['property'] }).property = (...args) =>
      new Promise((resolve, reject) => held.push(() => void property(...args).then(resolve, reject)));
    const paths = Array.from({ length: 16 }, (_, node) => `/org/a11y/atspi/accessible/${node}`);
    const reading = readNodes(
      grouped.client,
      SELF[0],
      paths,
      paths.map(() => INTERFACES),
      CHROMIUM,
    );
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    const inFlight = held.length;
    while (held.length > 0) (held.shift() as () => void)();
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (held.length === 0) break;
      while (held.length > 0) (held.shift() as () => void)();
    }
    const reads = await reading;
    expect(inFlight).toBe(48);
    expect(reads).toHaveLength(16);
    for (const read of reads) expect(read).toMatchObject({ item: { name: 'Act 2383', childCount: 1 } });
  });
});

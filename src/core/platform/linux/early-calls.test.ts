import { describe, expect, it } from 'vitest';
import type { ObjectRef } from '../../../../native/linux/atspi';
import type { CallingClient } from './client';
import { EarlyCalls } from './early-calls';

/** A client that counts its calls and answers each with its member and path, or fails for a path named 'gone'. */
function countingClient(): CallingClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    call: async (self: ObjectRef, _iface: string, member: string, _signature?: string, body?: unknown[]) => {
      calls.push(`${member} ${self[1]}${body === undefined ? '' : ` ${JSON.stringify(body)}`}`);
      if (self[1] === '/gone') throw new Error('UnknownObject');
      return [`${member} of ${self[1]}`];
    },
    property: async (self: ObjectRef, _iface: string, name: string) => {
      calls.push(`Get ${name} ${self[1]}`);
      return `${name} of ${self[1]}`;
    },
  } as CallingClient & { calls: string[] };
}

const NODE: ObjectRef = [':1.5', '/node'];

describe('EarlyCalls', () => {
  it('asks a call once and hands its answer to the first pass that makes it; a second ask goes to the app', async () => {
    const real = countingClient();
    const early = new EarlyCalls(real);
    early.ask(NODE, 'org.a11y.atspi.Accessible', 'GetRelationSet');
    early.ask(NODE, 'org.a11y.atspi.Accessible', 'GetRelationSet');
    await Promise.resolve();
    expect(real.calls).toEqual(['GetRelationSet /node']);
    const client = early.client;
    expect(await client.call(NODE, 'org.a11y.atspi.Accessible', 'GetRelationSet')).toEqual(['GetRelationSet of /node']);
    expect(real.calls).toHaveLength(1);
    await client.call(NODE, 'org.a11y.atspi.Accessible', 'GetRelationSet');
    expect(real.calls).toHaveLength(2);
  });

  it('hands an early property to the first pass that reads it', async () => {
    const real = countingClient();
    const early = new EarlyCalls(real);
    early.askProperty(NODE, 'org.a11y.atspi.Accessible', 'Name');
    expect(await early.client.property(NODE, 'org.a11y.atspi.Accessible', 'Name')).toBe('Name of /node');
    expect(await early.client.property(NODE, 'org.a11y.atspi.Accessible', 'Description')).toBe('Description of /node');
    expect(real.calls).toEqual(['Get Name /node', 'Get Description /node']);
  });

  it('passes calls with arguments, other members and properties to the app', async () => {
    const real = countingClient();
    const early = new EarlyCalls(real);
    early.ask(NODE, 'org.a11y.atspi.Text', 'GetText');
    await early.client.call(NODE, 'org.a11y.atspi.Text', 'GetText', 'ii', [0, 10]);
    await early.client.call(NODE, 'org.a11y.atspi.Accessible', 'GetAttributes');
    expect(await early.client.property(NODE, 'org.a11y.atspi.Accessible', 'Name')).toBe('Name of /node');
    expect(real.calls).toEqual(['GetText /node', 'GetText /node [0,10]', 'GetAttributes /node', 'Get Name /node']);
  });

  it('keeps a failure for the pass that takes it, and leaves none unhandled when no pass does', async () => {
    const real = countingClient();
    const early = new EarlyCalls(real);
    early.ask([':1.5', '/gone'], 'org.a11y.atspi.Accessible', 'GetChildren');
    early.ask([':1.5', '/gone'], 'org.a11y.atspi.Accessible', 'GetAttributes');
    await expect(early.take([':1.5', '/gone'], 'org.a11y.atspi.Accessible', 'GetChildren')).rejects.toThrow('UnknownObject');
    expect(early.take([':1.5', '/gone'], 'org.a11y.atspi.Accessible', 'GetChildren')).toBeUndefined();
    await expect(early.soon(async () => Promise.reject(new Error('late')))).rejects.toThrow('late');
  });

  it('keeps at most 16 early calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const real = {
      call: () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        return new Promise<unknown[]>((resolve) => release.push(() => ((inFlight -= 1), resolve([]))));
      },
      property: async () => undefined,
    } as unknown as CallingClient;
    const early = new EarlyCalls(real);
    for (let index = 0; index < 40; index += 1) early.ask([':1.5', `/n${index}`], 'org.a11y.atspi.Accessible', 'GetChildren');
    for (let round = 0; round < 10 && release.length > 0; round += 1) {
      release.splice(0).forEach((done) => done());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(most).toBe(16);
  });
});

/**
 * Calls a later pass of a whole read will make, asked as soon as the node they are about has
 * been read: while the app still answers the other nodes' reads, instead of one round trip
 * after its last answer (a document's parent listed again, a control's relations or
 * placeholder, a cached control's name). The later pass asks through `client`, which hands over the early answer, once,
 * and asks the app for anything not asked early; an early answer no pass takes is dropped.
 */
import type { ObjectRef } from '../../../../native/linux/atspi';
import type { AtspiClient, CallingClient } from './client';
import { limiter } from './pool';

/** Early calls in flight at once: the node reads keep the app busy, these only fill its gaps. */
const EARLY_IN_FLIGHT = 16;

const keyOf = (self: ObjectRef, iface: string, member: string): string => `${self[0]} ${self[1]} ${iface} ${member}`;

export class EarlyCalls {
  private readonly answers = new Map<string, Promise<unknown>>();
  private readonly limit = limiter(EARLY_IN_FLIGHT);

  constructor(private readonly real: CallingClient) {}

  /** Asks a call without arguments now (once per object and member), for a later pass to take. */
  ask(self: ObjectRef, iface: string, member: string): void {
    const key = keyOf(self, iface, member);
    if (this.answers.has(key)) return;
    const answer = this.limit(() => this.real.call(self, iface, member));
    // Handled here, as no pass may take it: a failure reaches the pass that takes it, and only it.
    answer.catch(() => undefined);
    this.answers.set(key, answer);
  }

  /** Asks a property now (once per object and name), for a later pass to take. */
  askProperty(self: ObjectRef, iface: string, name: string): void {
    const key = keyOf(self, iface, `Get ${name}`);
    if (this.answers.has(key)) return;
    const answer = this.limit(() => this.real.property(self, iface, name));
    answer.catch(() => undefined);
    this.answers.set(key, answer);
  }

  /** Runs a pass's own work for one node now, among the early calls (bounded with them); its failure is the taker's. */
  soon<T>(work: () => Promise<T>): Promise<T> {
    const done = this.limit(work);
    done.catch(() => undefined);
    return done;
  }

  /** The early answer to that call, taken (a second ask of it goes to the app), or undefined. */
  take(self: ObjectRef, iface: string, member: string): Promise<unknown[]> | undefined {
    return this.taken(keyOf(self, iface, member)) as Promise<unknown[]> | undefined;
  }

  private taken(key: string): Promise<unknown> | undefined {
    const answer = this.answers.get(key);
    if (answer !== undefined) this.answers.delete(key);
    return answer;
  }

  /** A client for a later pass: calls asked early are answered from here, all others by the app. */
  get client(): CallingClient {
    const call: AtspiClient['call'] = (self, iface, member, signature, body, timeoutMs) =>
      (body === undefined ? this.take(self, iface, member) : undefined) ?? this.real.call(self, iface, member, signature, body, timeoutMs);
    const property: AtspiClient['property'] = (self, iface, name, timeoutMs) =>
      this.taken(keyOf(self, iface, `Get ${name}`)) ?? this.real.property(self, iface, name, timeoutMs);
    return { call, property };
  }
}

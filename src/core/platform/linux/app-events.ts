import { abortReason } from '../../clock';
import type { AtspiClient } from './client';

/**
 * Waiters for an app's next accessibility event, by bus name: the action engine looks for an
 * action's effect as soon as the app reports a change instead of after a fixed time. Events
 * arrive for apps whose tree the mirror follows, which every acted-on app is.
 */
export class AppEvents {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly counts = new Map<string, number>();

  constructor(client: AtspiClient) {
    client.onTreeEvent((event) => {
      this.counts.set(event.bus, (this.counts.get(event.bus) ?? 0) + 1);
      const waiters = this.waiting.get(event.bus);
      if (waiters === undefined) return;
      this.waiting.delete(event.bus);
      for (const wake of waiters) wake();
    });
  }

  /** Resolves at the bus's next event; rejects with the signal's reason when it aborts first. */
  next(bus: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(bus) ?? new Set<() => void>();
      this.waiting.set(bus, waiters);
      const onAbort = (): void => {
        waiters.delete(wake);
        if (waiters.size === 0 && this.waiting.get(bus) === waiters) this.waiting.delete(bus);
        reject(abortReason(signal));
      };
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      waiters.add(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** How many events the bus has sent since it was first watched: a first read asks whether the app was quiet while it read. */
  count(bus: string): number {
    return this.counts.get(bus) ?? 0;
  }

  /** How many waits are pending: none once every action has settled (for tests). */
  get pending(): number {
    let count = 0;
    for (const waiters of this.waiting.values()) count += waiters.size;
    return count;
  }
}

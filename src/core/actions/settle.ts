import type { Clock } from '../clock';

/**
 * How long after an action the engine keeps looking for its effect. A GTK 4 button fires its
 * click about 250 ms after the press; a dialog, a page or a document can take longer. An
 * action whose effect is found sooner returns sooner; one with none is reported after this.
 */
export const SETTLE_BOUND_MS = 1200;
/** Waits between looks: short at first, where most late effects land, then spaced out. */
export const POLL_MS = [40, 60, 100, 150, 200, 250] as const;
/** Even an event waits this long before a look, so a burst of events costs one read, not many. */
export const EVENT_GAP_MS = 15;

/** One look at the app after an action: what it shows, and whether that is the answer. */
export interface Look<T> {
  value: T;
  /** True when the effect was found (or cannot be waited for); false means look again. */
  final: boolean;
}

export interface SettleOptions<T> {
  clock: Clock;
  /** The first look comes this long after the action (the request's settleMs, or the default). */
  firstLookMs: number;
  /** No look starts after this long from the first wait's start (at least firstLookMs). */
  boundMs: number;
  look: () => Promise<Look<T>>;
  /** Resolves at the app's next accessibility event, rejects when `signal` aborts; absent on platforms without events. */
  nextEvent?: (signal: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Told before each look; tests count polls with it, benches count them in the field. */
  onLook?: (count: number) => void;
}

/**
 * Waits for an action's effect: a first look after `firstLookMs` (as a fixed settle time did),
 * then, while the look is not final, further looks each after the app's next event or the
 * next poll interval, whichever comes first, until the bound. The last look is returned
 * either way, so a change that never came is reported as no change, never as a timeout.
 * Every wait goes through the injected clock, so tests count looks instead of waiting.
 */
export async function waitForEffect<T>(options: SettleOptions<T>): Promise<T> {
  const { clock, signal } = options;
  const started = clock.now();
  const bound = Math.max(options.boundMs, options.firstLookMs);
  await clock.sleep(options.firstLookMs, signal);
  let looks = 1;
  options.onLook?.(looks);
  let current = await options.look();
  for (let poll = 0; !current.final; poll += 1) {
    const interval = POLL_MS[Math.min(poll, POLL_MS.length - 1)] as number;
    const left = bound - (clock.now() - started);
    if (left <= 0) break;
    await waitOnce(options, Math.min(interval, left));
    looks += 1;
    options.onLook?.(looks);
    current = await options.look();
  }
  return current.value;
}

/** One wait: the interval, cut short by the app's next event when the platform reports events (replay's waits use it too). */
export async function waitOnce(options: Pick<SettleOptions<unknown>, 'clock' | 'signal' | 'nextEvent'>, ms: number): Promise<void> {
  const { clock, signal, nextEvent } = options;
  if (nextEvent === undefined || ms <= EVENT_GAP_MS) {
    await clock.sleep(ms, signal);
    return;
  }
  await clock.sleep(EVENT_GAP_MS, signal);
  const race = new AbortController();
  const forward = (): void => race.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  try {
    await Promise.race([clock.sleep(ms - EVENT_GAP_MS, race.signal), nextEvent(race.signal)]);
  } finally {
    signal?.removeEventListener('abort', forward);
    // The loser is cancelled; its rejection is expected and must not surface as unhandled.
    race.abort();
  }
  signal?.throwIfAborted();
}

import { StoppedError } from '../../shared/errors';

/**
 * Asks run one at a time, in the order they came. A stop aborts the running one and drops the
 * ones queued before it; asks queued after the stop run as usual.
 */
export class AskQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private controller: AbortController | undefined;
  /** Bumped by stop(), so asks queued before the stop are dropped and later ones run. */
  private generation = 0;
  private count = 0;

  nextId(): string {
    this.count += 1;
    return `ask-${this.count}`;
  }

  /**
   * Runs `work` once the asks before it are over. It gets the signal a stop aborts, or undefined
   * when a stop came after it was queued and it must not run. A rejection reaches this caller
   * only: the asks after it still run.
   */
  enqueue<T>(work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    const generation = this.generation;
    const run = this.tail.then(async () => {
      if (generation !== this.generation) return work(undefined);
      const controller = new AbortController();
      this.controller = controller;
      try {
        return await work(controller.signal);
      } finally {
        if (this.controller === controller) this.controller = undefined;
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  stop(): void {
    this.generation += 1;
    this.controller?.abort(new StoppedError());
  }
}

/** Test helper: a Provider that plays scripted turns and records every request. Used only by tests. */
import type { Provider, ProviderRequest, StreamPart } from './provider/types';

/**
 * A part to stream, a pause, or an error to throw. A pause of `Infinity` never ends by itself (a
 * stalled server), so a test of stop() shows the ask ended without waiting for it; `reached` tells
 * the test the stream got there, instead of a sleep.
 */
export type ScriptStep = StreamPart | { type: 'delay'; ms: number; ignoreSignal?: boolean; reached?: () => void } | { type: 'throw'; error: Error };

/** Steps, or a function of the request, for a turn that depends on what the tools returned. */
export type ScriptedTurn = ScriptStep[] | ((request: ProviderRequest) => ScriptStep[]);

export const text = (delta: string): StreamPart => ({ type: 'text', delta });
export const finish = (reason = 'stop'): StreamPart => ({ type: 'finish', reason });
export const toolCall = (id: string, name: string, args: unknown): StreamPart => ({
  type: 'tool_call',
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});
/** A request the server refused before answering, as an SDK error carries it: its `status` and the server's words. */
export const refusal = (status: number, message: string): ScriptStep => ({
  type: 'throw',
  error: Object.assign(new Error(`${status} ${message}`), { status }),
});
/** A whole plain answer turn. */
export const answer = (...deltas: string[]): ScriptedTurn => [...deltas.map(text), finish()];

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined;
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

export class FakeProvider implements Provider {
  readonly requests: ProviderRequest[] = [];
  /** Set by tests that switch models; left out, the provider names no model, like a plugin one. */
  identity?: () => Promise<string>;
  private readonly turns: ScriptedTurn[];

  constructor(
    turns: ScriptedTurn[] = [],
    private readonly fallback?: () => ScriptedTurn,
  ) {
    this.turns = [...turns];
  }

  push(...turns: ScriptedTurn[]): void {
    this.turns.push(...turns);
  }

  async *stream(request: ProviderRequest, signal?: AbortSignal): AsyncIterable<StreamPart> {
    this.requests.push(structuredClone(request));
    const scripted = this.turns.shift() ?? this.fallback?.();
    if (scripted === undefined) throw new Error('the scripted provider has no turn left');
    const turn = typeof scripted === 'function' ? scripted(request) : scripted;
    for (const step of turn) {
      // Like the real provider: an abort ends the stream quietly.
      if (signal?.aborted) return;
      if (step.type === 'delay') {
        step.reached?.();
        await delay(step.ms, step.ignoreSignal === true ? undefined : signal);
      } else if (step.type === 'throw') throw step.error;
      else yield step;
    }
  }
}

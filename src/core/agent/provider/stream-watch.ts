import { DeskpilotError } from '../../../shared/errors';
import type { ResolvedProviderConfig } from '../../provider-config/config';

/**
 * A model stream may stall: a server that keeps the connection open with keep-alive comments
 * but sends no tokens would hold `ask` for ever. So progress (a token, a tool call, a finish)
 * must come within `idleMs` of the reply starting and of the last progress, and the whole
 * answer within `totalMs`. Either breach aborts the request and is a PROVIDER_TIMEOUT.
 */
export interface StreamLimits {
  idleMs: number;
  totalMs: number;
}

/** A local model may think for a minute before its first token; ten minutes is far beyond any answer. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { idleMs: 120_000, totalMs: 600_000 };

/** The timers behind setTimeout, replaceable by a fake clock. */
export interface Timers {
  set: (run: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const REAL_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class StreamWatch {
  private readonly controller = new AbortController();
  private idle: unknown;
  private readonly total: unknown;
  private expired: 'idle' | 'total' | undefined;
  private readonly forward = (): void => this.controller.abort(this.caller?.reason);
  /** Aborts on the caller's signal and on either limit. */
  readonly signal: AbortSignal = this.controller.signal;

  constructor(
    private readonly limits: StreamLimits,
    /** The caller's own signal: its abort is a cancellation, not an error. */
    readonly caller: AbortSignal | undefined,
    private readonly timers: Timers = REAL_TIMERS,
  ) {
    caller?.addEventListener('abort', this.forward, { once: true });
    this.total = timers.set(() => this.expire('total'), limits.totalMs);
  }

  /** The reply's headers came: from now on, progress is due within idleMs. */
  answered(): void {
    this.progress();
  }

  progress(): void {
    if (this.expired !== undefined) return;
    if (this.idle !== undefined) this.timers.clear(this.idle);
    this.idle = this.timers.set(() => this.expire('idle'), this.limits.idleMs);
  }

  private expire(which: 'idle' | 'total'): void {
    if (this.expired !== undefined || this.caller?.aborted) return;
    this.expired = which;
    this.controller.abort(new Error(`stream ${which} limit`));
  }

  /** The typed error when a limit ended the stream, else undefined. */
  timeout(config: Pick<ResolvedProviderConfig, 'label'>, partial: string): DeskpilotError | undefined {
    if (this.expired === undefined) return undefined;
    const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
    const message =
      this.expired === 'idle'
        ? `${config.label} stopped sending the answer: nothing came for ${seconds(this.limits.idleMs)} (keep-alives aside), so the request was ended.`
        : `The answer from ${config.label} took longer than ${seconds(this.limits.totalMs)} in all, so the request was ended.`;
    return new DeskpilotError('PROVIDER_TIMEOUT', message, {
      isRetryable: true,
      data: { reason: this.expired, limitMs: this.expired === 'idle' ? this.limits.idleMs : this.limits.totalMs, partial },
    });
  }

  stop(): void {
    if (this.idle !== undefined) this.timers.clear(this.idle);
    this.timers.clear(this.total);
    this.caller?.removeEventListener('abort', this.forward);
  }
}

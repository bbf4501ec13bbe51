/**
 * The calling side of a service (in the manner of VS Code's ProxyChannel and the MCP SDK's
 * Protocol): numbered requests, a reply or a typed error for each, a per-request AbortSignal
 * and timeout that also cancel the call on the other side, and progress before the reply.
 *
 * The other side may come and go (a host process restarts): while disconnected, requests and
 * notifications wait in one queue, in order, and go out on `connect`. `disconnect` rejects
 * every request that can no longer be answered with the caller's typed error.
 */
import { DeskpilotError, StoppedError, TimeoutError, ValidationError, deserializeError } from '../errors';
import {
  defaultTimers,
  own,
  type EventName,
  type EventOut,
  type MethodName,
  type NotificationIn,
  type NotificationName,
  type ParamsIn,
  type ProgressOut,
  type ResultOut,
  type ServiceSpec,
  type Timers,
} from './service';
import { checkPayload, parseWire, type WireMessage } from './wire';

export interface RequestOptions<Progress> {
  /** Aborting rejects the call with STOPPED (or the signal's own DeskpilotError) and cancels it on the other side. */
  signal?: AbortSignal;
  /** Rejects the call with TIMEOUT after this long and cancels it on the other side. */
  timeoutMs?: number;
  /** Called with each progress value, in order, until the reply arrives. */
  onProgress?: (value: Progress) => void;
}

export interface NotifyOptions {
  /** `drop`: the notification only means something to the side connected now (a stop, an approval). */
  whenDisconnected?: 'queue' | 'drop';
}

export type EventHandlers<S extends ServiceSpec> = { [E in EventName<S>]?: (payload: EventOut<S, E>) => void };

export interface RpcClientOptions<S extends ServiceSpec> {
  events: EventHandlers<S>;
  /** A message that is not the protocol's, or a reply, progress or event that failed its schema; never its content. */
  onProblem: (problem: string) => void;
  timers?: Timers;
}

interface Pending {
  method: string;
  /** The request as it goes on the wire; still in the queue until sent. */
  message: WireMessage;
  sent: boolean;
  settle: (outcome: { ok: true; value: unknown } | { ok: false; error: Error }) => void;
  progress: ((value: unknown) => void) | undefined;
}

export class RpcClient<S extends ServiceSpec> {
  private readonly service: S;
  private readonly options: RpcClientOptions<S>;
  private readonly timers: Timers;
  private send: ((message: WireMessage) => void) | undefined;
  private readonly queue: WireMessage[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(service: S, options: RpcClientOptions<S>) {
    this.service = service;
    this.options = options;
    this.timers = options.timers ?? defaultTimers;
  }

  get connected(): boolean {
    return this.send !== undefined;
  }

  /** Sends through `send` from now on: first what `greet` sends (it runs connected), then the queue in order. */
  connect(send: (message: WireMessage) => void, greet?: () => void): void {
    this.send = send;
    greet?.();
    for (const message of this.queue.splice(0)) {
      if (message.rpc === 'request') {
        const pending = this.pending.get(message.id);
        if (pending === undefined) continue;
        pending.sent = true;
      }
      send(message);
    }
  }

  /** The other side is gone: every request it had, and every queued one, fails with `error`; queued notifications wait. */
  disconnect(error: Error): void {
    this.send = undefined;
    for (const pending of [...this.pending.values()]) pending.settle({ ok: false, error });
    this.pending.clear();
    this.queue.splice(0, this.queue.length, ...this.queue.filter((message) => message.rpc !== 'request'));
  }

  request<M extends MethodName<S>>(method: M, params: ParamsIn<S, M>, options: RequestOptions<ProgressOut<S, M>> = {}): Promise<ResultOut<S, M>> {
    const spec = own(this.service.methods, method);
    if (spec === undefined) return Promise.reject(new ValidationError(`unknown method ${method}`));
    const id = this.nextId++;
    return new Promise<ResultOut<S, M>>((resolve, reject) => {
      const { signal, timeoutMs, onProgress } = options;
      const abort = (): void => this.cancel(id, abortError(signal?.reason));
      const timer =
        timeoutMs === undefined
          ? undefined
          : this.timers.setTimeout(() => this.cancel(id, new TimeoutError(`${method} got no reply within ${timeoutMs} ms`)), timeoutMs);
      const message: WireMessage = { rpc: 'request', id, method, params };
      this.pending.set(id, {
        method,
        message,
        sent: false,
        progress: onProgress === undefined ? undefined : (value) => this.progressed(method, spec.progress, value, onProgress),
        settle: (outcome) => {
          if (timer !== undefined) this.timers.clearTimeout(timer);
          signal?.removeEventListener('abort', abort);
          if (!outcome.ok) return reject(outcome.error);
          const checked = checkPayload(spec.result, outcome.value);
          // The one place the generic is taken on trust: the value passed this method's own result schema.
          if (checked.ok) return resolve(checked.value as ResultOut<S, M>);
          this.options.onProblem(`invalid reply to ${method}: ${checked.problem}`);
          reject(new ValidationError(`invalid reply to ${method}: ${checked.problem}`));
        },
      });
      if (signal?.aborted === true) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      this.post(message, id);
    });
  }

  notify<N extends NotificationName<S>>(method: N, params: NotificationIn<S, N>, options: NotifyOptions = {}): void {
    if (this.send === undefined && options.whenDisconnected === 'drop') return;
    this.post({ rpc: 'notify', method, params });
  }

  /**
   * Takes the queued requests for `method` that nothing has seen yet, rejects their callers
   * with `error`, and returns their params (a stop covers the asks waiting for the next host).
   */
  dropQueued<M extends MethodName<S>>(method: M, error: Error): { id: number; params: ParamsIn<S, M> }[] {
    const dropped: { id: number; params: ParamsIn<S, M> }[] = [];
    for (const [id, pending] of this.pending) {
      if (pending.sent || pending.method !== method || pending.message.rpc !== 'request') continue;
      // The queue holds what request() was given for this method, which is ParamsIn<S, M>.
      dropped.push({ id, params: pending.message.params as ParamsIn<S, M> });
      this.cancel(id, error);
    }
    return dropped;
  }

  /** One message from the other side. */
  receive(raw: unknown): void {
    const parsed = parseWire(raw);
    if (!parsed.ok) return this.options.onProblem(`ignored an invalid message: ${parsed.problem}`);
    const message = parsed.message;
    switch (message.rpc) {
      case 'result':
      case 'error': {
        const pending = this.pending.get(message.id);
        // A reply to a call that timed out or was cancelled is no longer anyone's.
        if (pending === undefined) return;
        this.pending.delete(message.id);
        pending.settle(message.rpc === 'result' ? { ok: true, value: message.value } : { ok: false, error: errorOf(message.error) });
        return;
      }
      case 'progress':
        this.pending.get(message.id)?.progress?.(message.value);
        return;
      case 'event':
        return this.event(message.event, message.payload);
      default:
        this.options.onProblem(`ignored a ${message.rpc} message, which only the serving side takes`);
    }
  }

  private event(name: string, payload: unknown): void {
    const schema = own(this.service.events, name);
    if (schema === undefined) return this.options.onProblem(`ignored an invalid message: unknown event ${name}`);
    const checked = checkPayload(schema, payload);
    if (!checked.ok) return this.options.onProblem(`ignored an invalid message: ${name}: ${checked.problem}`);
    // The handlers are keyed by the same names as the schemas, so this one takes this payload.
    const handler = own(this.options.events as Record<string, ((payload: unknown) => void) | undefined>, name);
    handler?.(checked.value);
  }

  private progressed(method: string, schema: MethodSpecProgress, value: unknown, onProgress: (value: never) => void): void {
    if (schema === undefined) return this.options.onProblem(`ignored progress from ${method}, which reports none`);
    const checked = checkPayload(schema, value);
    if (!checked.ok) return this.options.onProblem(`ignored invalid progress from ${method}: ${checked.problem}`);
    (onProgress as (value: unknown) => void)(checked.value);
  }

  private post(message: WireMessage, id?: number): void {
    if (this.send === undefined) {
      this.queue.push(message);
      return;
    }
    if (id !== undefined) {
      const pending = this.pending.get(id);
      if (pending !== undefined) pending.sent = true;
    }
    this.send(message);
  }

  /** Ends a call here with `error`; the other side hears of it only if it has the request. */
  private cancel(id: number, error: Error): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    if (pending.sent) this.send?.({ rpc: 'cancel', id });
    else this.queue.splice(0, this.queue.length, ...this.queue.filter((message) => !(message.rpc === 'request' && message.id === id)));
    pending.settle({ ok: false, error });
  }
}

type MethodSpecProgress = ServiceSpec['methods'][string]['progress'];
type WireError = Extract<WireMessage, { rpc: 'error' }>['error'];

/** The wire's error as this side's typed error (zod leaves an absent `data` as undefined). */
function errorOf({ data, ...rest }: WireError): Error {
  return deserializeError(data === undefined ? rest : { ...rest, data });
}

function abortError(reason: unknown): Error {
  return DeskpilotError.isInstance(reason) ? reason : new StoppedError('cancelled');
}

/**
 * The serving side of a service: every request and notification is checked against its
 * method's schema before a handler sees it; a handler's throw becomes the typed error reply;
 * a `cancel` aborts the handler's signal and its reply is never sent. The handlers are one
 * object with a key per declared method and notification, so the compiler names any missing.
 */
import { ValidationError, StoppedError, serializeError } from '../errors';
import {
  own,
  type EventIn,
  type EventName,
  type MethodName,
  type NotificationName,
  type NotificationOut,
  type ParamsOut,
  type ProgressIn,
  type ResultIn,
  type ServiceSpec,
} from './service';
import { checkPayload, parseWire, type WireMessage } from './wire';

export interface CallContext<Progress> {
  /** Fires when the caller cancels (or times out); the handler should stop its work. */
  signal: AbortSignal;
  /** Reports progress to the caller; ignored once the call is cancelled or replied. */
  progress: (value: Progress) => void;
}

export interface Handlers<S extends ServiceSpec> {
  methods: { [M in MethodName<S>]: (params: ParamsOut<S, M>, context: CallContext<ProgressIn<S, M>>) => ResultIn<S, M> | Promise<ResultIn<S, M>> };
  notifications: { [N in NotificationName<S>]: (params: NotificationOut<S, N>) => void | Promise<void> };
}

export interface RpcServerOptions {
  send: (message: WireMessage) => void;
  /** A rejected message or a failed notification, in words that never repeat the message. */
  onProblem: (problem: string) => void;
}

type AnyMethod = (params: unknown, context: CallContext<unknown>) => unknown;
type AnyNotification = (params: unknown) => unknown;

export class RpcServer<S extends ServiceSpec> {
  private readonly service: S;
  private readonly methods: Record<string, AnyMethod>;
  private readonly notifications: Record<string, AnyNotification>;
  private readonly options: RpcServerOptions;
  private readonly running = new Map<number, AbortController>();

  constructor(service: S, handlers: Handlers<S>, options: RpcServerOptions) {
    this.service = service;
    // Each handler takes what its own schema produced; the lookups below pair them by name.
    this.methods = handlers.methods as Record<string, AnyMethod>;
    this.notifications = handlers.notifications as Record<string, AnyNotification>;
    this.options = options;
  }

  /** Pushes an event to the caller's side. */
  emit<E extends EventName<S>>(event: E, payload: EventIn<S, E>): void {
    this.options.send({ rpc: 'event', event, payload });
  }

  /** One message from the caller. */
  receive(raw: unknown): void {
    const parsed = parseWire(raw);
    if (!parsed.ok) {
      this.options.onProblem(`rejected an invalid request: ${parsed.problem}`);
      const id = requestIdOf(raw);
      if (id !== undefined) this.fail(id, new ValidationError(`invalid request: ${parsed.problem}`));
      return;
    }
    const message = parsed.message;
    switch (message.rpc) {
      case 'request':
        void this.call(message.id, message.method, message.params);
        return;
      case 'notify':
        void this.notified(message.method, message.params);
        return;
      case 'cancel':
        this.running.get(message.id)?.abort(new StoppedError('cancelled by the caller'));
        this.running.delete(message.id);
        return;
      default:
        this.options.onProblem(`rejected an invalid request: a ${message.rpc} message goes the other way`);
    }
  }

  private async call(id: number, method: string, params: unknown): Promise<void> {
    const spec = own(this.service.methods, method);
    const handler = own(this.methods, method);
    if (spec === undefined || handler === undefined) {
      this.options.onProblem(`rejected an invalid request: unknown method ${method}`);
      return this.fail(id, new ValidationError(`unknown method ${method}`));
    }
    const checked = checkPayload(spec.params, params);
    if (!checked.ok) {
      this.options.onProblem(`rejected an invalid request: ${method}: ${checked.problem}`);
      return this.fail(id, new ValidationError(`invalid request: ${method}: ${checked.problem}`));
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    const live = (): boolean => this.running.get(id) === controller;
    try {
      const value = await handler(checked.value, {
        signal: controller.signal,
        progress: (progress) => {
          if (live()) this.options.send({ rpc: 'progress', id, value: progress });
        },
      });
      if (live()) this.options.send({ rpc: 'result', id, value });
    } catch (error) {
      if (live()) this.options.send({ rpc: 'error', id, error: serializeError(error) });
    } finally {
      if (live()) this.running.delete(id);
    }
  }

  private async notified(method: string, params: unknown): Promise<void> {
    const schema = own(this.service.notifications, method);
    const handler = own(this.notifications, method);
    if (schema === undefined || handler === undefined) return this.options.onProblem(`rejected an invalid request: unknown notification ${method}`);
    const checked = checkPayload(schema, params);
    if (!checked.ok) return this.options.onProblem(`rejected an invalid request: ${method}: ${checked.problem}`);
    try {
      await handler(checked.value);
    } catch (error) {
      this.options.onProblem(`${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private fail(id: number, error: Error): void {
    this.options.send({ rpc: 'error', id, error: serializeError(error) });
  }
}

/** The id of a request that failed the envelope, so its caller still gets an error rather than a wait. */
function requestIdOf(raw: unknown): number | undefined {
  if (typeof raw !== 'object' || raw === null || !('id' in raw) || !('rpc' in raw) || raw.rpc !== 'request') return undefined;
  return typeof raw.id === 'number' && Number.isInteger(raw.id) && raw.id >= 0 ? raw.id : undefined;
}

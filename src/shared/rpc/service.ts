/**
 * A service between two processes, declared once: its methods (a request with one reply),
 * its notifications (one way, no reply) and its events (pushed by the side that serves it),
 * each with one zod schema. The client and the server both read the same declaration, so a
 * new method is one entry here and one handler where it is served; the types follow.
 */
import type { z } from 'zod';

export interface MethodSpec {
  params: z.ZodType;
  result: z.ZodType;
  /** What the method reports while it runs, before its reply. */
  progress?: z.ZodType;
}

export interface ServiceSpec {
  methods: Record<string, MethodSpec>;
  notifications: Record<string, z.ZodType>;
  events: Record<string, z.ZodType>;
}

/** Checks a declaration against ServiceSpec and keeps its exact type. */
export function defineService<const Spec extends ServiceSpec>(spec: Spec): Spec {
  return spec;
}

export type MethodName<S extends ServiceSpec> = keyof S['methods'] & string;
export type NotificationName<S extends ServiceSpec> = keyof S['notifications'] & string;
export type EventName<S extends ServiceSpec> = keyof S['events'] & string;

/** What a caller passes (the schema's input) and what the handler receives (its output). */
export type ParamsIn<S extends ServiceSpec, M extends MethodName<S>> = z.input<S['methods'][M]['params']>;
export type ParamsOut<S extends ServiceSpec, M extends MethodName<S>> = z.output<S['methods'][M]['params']>;
/** What a handler returns, and what the caller gets once the reply passed the schema. */
export type ResultIn<S extends ServiceSpec, M extends MethodName<S>> = z.input<S['methods'][M]['result']>;
export type ResultOut<S extends ServiceSpec, M extends MethodName<S>> = z.output<S['methods'][M]['result']>;
export type ProgressIn<S extends ServiceSpec, M extends MethodName<S>> = S['methods'][M] extends { progress: infer P extends z.ZodType } ? z.input<P> : never;
export type ProgressOut<S extends ServiceSpec, M extends MethodName<S>> = S['methods'][M] extends { progress: infer P extends z.ZodType } ? z.output<P> : never;
export type NotificationIn<S extends ServiceSpec, N extends NotificationName<S>> = z.input<S['notifications'][N]>;
export type NotificationOut<S extends ServiceSpec, N extends NotificationName<S>> = z.output<S['notifications'][N]>;
export type EventIn<S extends ServiceSpec, E extends EventName<S>> = z.input<S['events'][E]>;
export type EventOut<S extends ServiceSpec, E extends EventName<S>> = z.output<S['events'][E]>;

/** Timers the RPC uses for its timeouts; tests pass a manual clock. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const defaultTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A name the wire may carry, looked up without reaching the prototype (`__proto__`, `toString`). */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

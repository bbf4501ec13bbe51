/**
 * The RPC's messages on the wire, whatever carries them (Electron's parentPort, Node's IPC
 * channel, a MessagePort in tests). Plain JSON only. Every side parses what it receives with
 * WIRE_MESSAGE before anything else: a crash mid-write or a version mismatch becomes a logged
 * rejection, never undefined behaviour. Params, results and payloads are checked afterwards
 * against the method's own schema.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors';
import { describeIssues } from '../validation';

const id = z.int().nonnegative();
/** A method or event name: bounded and plain, because errors name it back. */
const name = z
  .string()
  .max(100)
  .regex(/^[A-Za-z][A-Za-z0-9_.]*$/);

export const SERIALIZED_ERROR_SCHEMA = z.strictObject({
  code: z.enum(ERROR_CODES),
  message: z.string().max(20_000),
  isRetryable: z.boolean(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const WIRE_MESSAGE = z.discriminatedUnion('rpc', [
  z.strictObject({ rpc: z.literal('request'), id, method: name, params: z.unknown() }),
  z.strictObject({ rpc: z.literal('notify'), method: name, params: z.unknown() }),
  /** The caller no longer wants the reply: the handler's AbortSignal fires, and no reply is sent. */
  z.strictObject({ rpc: z.literal('cancel'), id }),
  z.strictObject({ rpc: z.literal('result'), id, value: z.unknown() }),
  z.strictObject({ rpc: z.literal('error'), id, error: SERIALIZED_ERROR_SCHEMA }),
  /** Sent before the request's reply, in the order the handler reported. */
  z.strictObject({ rpc: z.literal('progress'), id, value: z.unknown() }),
  z.strictObject({ rpc: z.literal('event'), event: name, payload: z.unknown() }),
]);

export type WireMessage = z.output<typeof WIRE_MESSAGE>;

/** A parse result that names what was wrong without echoing the message (it may hold a key). */
export function parseWire(raw: unknown): { ok: true; message: WireMessage } | { ok: false; problem: string } {
  const parsed = WIRE_MESSAGE.safeParse(raw);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, problem: describeIssues(parsed.error.issues, { max: 3, input: raw }) };
}

/** The same wording for a payload that failed its method's or event's own schema. */
export function checkPayload<T extends z.ZodType>(schema: T, value: unknown): { ok: true; value: z.output<T> } | { ok: false; problem: string } {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, problem: describeIssues(parsed.error.issues, { max: 3, input: value }) };
}

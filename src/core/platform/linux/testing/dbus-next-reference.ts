/**
 * dbus-next's marshaller, which our wire code replaced, as the reference its tests compare
 * against (dbus-writer, dbus-reader and dbus-message tests): the same bytes out, the same values
 * (in dbus-next's shapes) back, whichever side wrote the message.
 */
import { createRequire } from 'node:module';
import { MESSAGE_TYPE, type WireMessage } from '../../../../../native/linux/dbus-message';

const require = createRequire(import.meta.url);

export const reference = require('dbus-next/lib/message.js') as {
  marshall: (message: Record<string, unknown>) => [Buffer, unknown[]];
  unmarshall: (buffer: Buffer) => Record<string, unknown> & { body: unknown[] };
};

/** A method call with the given body, its other fields fixed. */
export function call(signature: string, body: unknown[]): WireMessage {
  return { type: MESSAGE_TYPE.methodCall, serial: 7, destination: ':1.5', path: '/a/b', interface: 'x.y', member: 'M', signature, body };
}

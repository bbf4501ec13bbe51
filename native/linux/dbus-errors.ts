/**
 * The D-Bus client's typed failures (dbus.ts re-exports them): a call timed out, the peer
 * answered with an error, or the connection is gone.
 */
import type { CallFields } from './dbus-message';

type MethodCall = CallFields;

/** A call that got no answer in time. */
export class DbusTimeoutError extends Error {
  constructor(
    readonly call: MethodCall,
    readonly timeoutMs: number,
  ) {
    super(`${call.destination} did not answer ${call.interface}.${call.member} on ${call.path} within ${timeoutMs} ms`);
    this.name = 'DbusTimeoutError';
  }
}

/** An error reply from the peer, keeping its D-Bus error name (org.freedesktop.DBus.Error.*). */
export class DbusCallError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
    readonly call: MethodCall,
  ) {
    super(`${call.interface}.${call.member}: ${errorName}: ${message}`);
    this.name = 'DbusCallError';
  }
}

/**
 * The connection is gone (the bus daemon died, the socket never opened, or close() was
 * called): every call still waiting fails at once with this, instead of at its timeout.
 */
export class DbusDisconnectedError extends Error {
  constructor(
    readonly address: string,
    why: string,
  ) {
    super(`the D-Bus connection to ${address} is closed: ${why}`);
    this.name = 'DbusDisconnectedError';
  }
}

/**
 * The value of a D-Bus variant (type v), in dbus-next's shape, which callers already used: the
 * reader makes one for every v it reads, the writer takes one for every v it writes.
 */

/** A value of type v: its signature and the value. */
export class Variant {
  constructor(
    readonly signature: string,
    readonly value: unknown,
  ) {}
}

/**
 * A D-Bus connection's socket: the address, the EXTERNAL authentication, and messages framed
 * in and out. Messages sent in one turn of the event loop leave in one write (a tree read
 * sends hundreds at once). Knows nothing of calls or replies: dbus.ts does.
 */
import { createConnection, type Socket } from 'node:net';
import { Writer } from './dbus-writer';
import { decodeMessage, messageLength, writeCall, writeMessage, type CallFields, type WireMessage } from './dbus-message';

/** Where a bus listens, from its address ("unix:path=…,guid=…" or "unix:abstract=…"; the first usable of a ;-list). */
export function socketPathOf(address: string): string {
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    if (colon < 0 || entry.slice(0, colon) !== 'unix') continue;
    const keys = new Map(
      entry
        .slice(colon + 1)
        .split(',')
        .map((pair) => {
          const equals = pair.indexOf('=');
          return [pair.slice(0, equals), decodeURIComponent(pair.slice(equals + 1))] as const;
        }),
    );
    const file = keys.get('path');
    if (file !== undefined && file !== '') return file;
    // Linux abstract sockets: Node reaches them by a leading NUL.
    const abstract = keys.get('abstract');
    if (abstract !== undefined && abstract !== '') return `\0${abstract}`;
  }
  throw new Error(`no unix socket in D-Bus address ${JSON.stringify(address)}`);
}

/** A batch's first buffer: a turn of a tree read's calls (about 150 bytes each) fits most often. */
const BATCH_BYTES = 16 * 1024;

/** The longest line a bus may send while authenticating: more is not a D-Bus server. */
const MAX_AUTH_LINE = 16 * 1024;

export interface SocketEvents {
  /**
   * A message, its body not yet read: it is `length` bytes at `offset` of `buffer` (bodyReader
   * reads it), and those bytes are only there until this returns.
   */
  message: (message: WireMessage, buffer: Buffer, offset: number, length: number) => void;
  /** The socket failed or closed, or the peer spoke nonsense: why. Said once. */
  lost: (why: string) => void;
}

export class DbusSocket {
  private readonly socket: Socket;
  private authenticated = false;
  private pendingIn: Buffer = Buffer.alloc(0);
  /** The chunks of a message not yet whole, and how many bytes it needs (0: none waiting). */
  private parts: Buffer[] = [];
  private partsLength = 0;
  private waitingFor = 0;
  /** The messages of this turn, encoded back to back into one buffer, which leaves in one write. */
  private queued = new Writer(BATCH_BYTES);
  private flushScheduled = false;
  private gone = false;

  constructor(
    address: string,
    private readonly events: SocketEvents,
  ) {
    this.socket = createConnection({ path: socketPathOf(address) });
    this.socket.on('error', (error) => this.lose(error.message));
    this.socket.on('close', () => this.lose('the bus closed the connection'));
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const uid = process.getuid?.() ?? 0;
    this.socket.write(`\0AUTH EXTERNAL ${Buffer.from(String(uid)).toString('hex')}\r\n`);
  }

  /** Queues a message; it leaves with the others of this turn, once authentication is done. */
  send(message: WireMessage): void {
    if (this.gone) return;
    writeMessage(this.queued, message);
    this.scheduleFlush();
  }

  /** Queues a method call (writeCall: no message object made for it); `destination: false` leaves it out. */
  sendCall(serial: number, call: CallFields, destination: boolean): void {
    if (this.gone) return;
    writeCall(this.queued, serial, call, destination);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.authenticated && !this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(this.flushLater);
    }
  }

  /** One function for every turn's flush, instead of a closure made per turn. */
  private readonly flushLater = (): void => this.flush();

  private flush(): void {
    this.flushScheduled = false;
    if (this.gone || this.queued.at === 0) return;
    const batch = this.queued.buffer.subarray(0, this.queued.at);
    this.socket.write(batch);
    // Written to the kernel at once (nothing left queued in the socket): the buffer is free for
    // the next batch. A new 16 kB buffer per batch, thousands a read, was memory outside the heap
    // that V8 counts towards its next collection. Else the socket holds it until written.
    if (this.socket.writableLength === 0 && this.queued.buffer.length <= BATCH_BYTES * 4) this.queued.at = 0;
    else this.queued = new Writer(BATCH_BYTES);
  }

  private receive(chunk: Buffer): void {
    if (this.gone) return;
    // A big reply (Cache.GetItems of a whole page: megabytes) comes in many chunks: they wait in a
    // list until the message is whole, and are joined once, instead of the whole copied per chunk.
    if (this.waitingFor > 0) {
      this.parts.push(chunk);
      this.partsLength += chunk.length;
      if (this.partsLength < this.waitingFor) return;
      chunk = Buffer.concat(this.parts, this.partsLength);
      this.parts = [];
      this.partsLength = 0;
      this.waitingFor = 0;
    }
    this.pendingIn = this.pendingIn.length === 0 ? chunk : Buffer.concat([this.pendingIn, chunk]);
    try {
      if (!this.authenticated && !this.authenticate()) return;
      let offset = 0;
      let length: number | undefined;
      for (;;) {
        length = messageLength(this.pendingIn, offset);
        if (length === undefined || this.pendingIn.length - offset < length) break;
        const message = decodeMessage(this.pendingIn, offset, length, false);
        this.events.message(message, this.pendingIn, offset, length);
        offset += length;
        if (this.gone) return;
      }
      // What is left is a message's first part: copied, so the big chunk it came in can go.
      this.pendingIn = offset === 0 ? this.pendingIn : Buffer.from(this.pendingIn.subarray(offset));
      if (length !== undefined && length > this.pendingIn.length) {
        this.parts = [this.pendingIn];
        this.partsLength = this.pendingIn.length;
        this.waitingFor = length;
        this.pendingIn = Buffer.alloc(0);
      }
    } catch (error) {
      this.lose(`unreadable D-Bus data: ${error instanceof Error ? error.message : String(error)}`);
      this.socket.destroy();
    }
  }

  /** Reads the server's answer to AUTH; true once the socket carries messages. */
  private authenticate(): boolean {
    const end = this.pendingIn.indexOf('\r\n');
    if (end < 0) {
      if (this.pendingIn.length > MAX_AUTH_LINE) throw new Error('authentication line too long');
      return false;
    }
    const line = this.pendingIn.toString('latin1', 0, end);
    this.pendingIn = this.pendingIn.subarray(end + 2);
    if (!line.startsWith('OK')) throw new Error(`the bus refused authentication: ${line.slice(0, 200)}`);
    this.socket.write('BEGIN\r\n');
    this.authenticated = true;
    this.flush();
    return true;
  }

  private lose(why: string): void {
    if (this.gone) return;
    this.gone = true;
    this.queued = new Writer(0);
    this.events.lost(why);
  }

  close(): void {
    this.socket.destroy();
    this.lose('closed by this process');
  }
}

import net from 'node:net';
import { displaySocket } from '../display';
import { findCookie } from './xauthority';

/**
 * The few core X11 requests window activation needs, spoken directly over the display's
 * socket. No Xlib: its default error handler exits the whole process on a BadWindow (a
 * window that closed between two calls), while here an X error is just a rejected promise.
 */

const pad = (length: number): number => (4 - (length % 4)) % 4;

export class X11Error extends Error {
  constructor(
    readonly code: number,
    request: string,
  ) {
    super(`X11 error ${code} on ${request}`);
    this.name = 'X11Error';
  }
}

interface Pending {
  sequence: number;
  request: string;
  resolve(reply: Buffer): void;
  reject(error: Error): void;
}

export class X11Connection {
  private sequence = 0;
  private buffered = Buffer.alloc(0);
  private waiting: Buffer[] = [];
  private waitingBytes = 0;
  /** Bytes the packet at the head of `buffered` needs in all, while it is incomplete. */
  private needed = 0;
  private readonly pending: Pending[] = [];
  private failure: Error | undefined;
  /** Receives every event packet (32 bytes, or a longer generic event); events are dropped without it. */
  onEvent: ((packet: Buffer) => void) | undefined;

  private constructor(
    private readonly socket: net.Socket,
    readonly root: number,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    const fail = (error: Error): void => {
      this.failure ??= error;
      for (const waiting of this.pending.splice(0)) waiting.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the X server closed the connection')));
  }

  /** Connects to `env.DISPLAY` and reads the root window of its screen. */
  static async open(env: Record<string, string | undefined>, timeoutMs: number): Promise<X11Connection> {
    const display = env['DISPLAY'] ?? '';
    const target = displaySocket(display);
    const match = /:(\d+)(?:\.(\d+))?$/.exec(display);
    if (target === undefined || match === null) throw new Error(`DISPLAY=${display} is not a display name`);
    const socket = net.connect(target as net.NetConnectOpts);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('the X server did not answer')));
    const setup = await new Promise<Buffer>((resolve, reject) => {
      let received = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        received = Buffer.concat([received, chunk]);
        if (received.length < 8 || received.length < 8 + received.readUInt16LE(6) * 4) return;
        socket.off('data', onData);
        socket.off('error', reject);
        resolve(received);
      };
      socket.on('data', onData);
      socket.once('error', reject);
      // A server that hangs up mid-setup; after a resolve this reject does nothing.
      socket.once('close', () => reject(new Error('the X server closed the connection during setup')));
      socket.once('connect', () => socket.write(setupRequest(findCookie(env, match[1] as string))));
    });
    try {
      return new X11Connection(socket, parseSetup(setup, Number(match[2] ?? 0)));
    } catch (error) {
      socket.destroy();
      throw error;
    }
  }

  close(): void {
    this.socket.destroy();
  }

  /** A request that has a reply. `body` is everything after the 4-byte header. */
  request(opcode: number, data: number, body: Buffer, name: string): Promise<Buffer> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const sequence = this.send(opcode, data, body);
    return new Promise((resolve, reject) => this.pending.push({ sequence, request: name, resolve, reject }));
  }

  /** A request with no reply, followed by a round trip (GetInputFocus) so an error it caused is seen here. */
  async sendChecked(opcode: number, data: number, body: Buffer, name: string): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    let failed: Error | undefined;
    const entry: Pending = { sequence: this.send(opcode, data, body), request: name, resolve: () => undefined, reject: (error) => (failed = error) };
    this.pending.push(entry);
    try {
      // The server answers in order: once the sync reply is here, any error for the request came first.
      await this.request(43, 0, Buffer.alloc(0), 'GetInputFocus');
    } finally {
      const index = this.pending.indexOf(entry);
      if (index >= 0) this.pending.splice(index, 1);
    }
    if (failed !== undefined) throw failed;
  }

  private send(opcode: number, data: number, body: Buffer): number {
    const header = Buffer.alloc(4);
    header.writeUInt8(opcode, 0);
    header.writeUInt8(data, 1);
    header.writeUInt16LE(1 + body.length / 4, 2);
    this.socket.write(Buffer.concat([header, body]));
    this.sequence = (this.sequence + 1) & 0xffff;
    return this.sequence;
  }

  private receive(chunk: Buffer): void {
    // A window image is megabytes in 64 kB chunks: gather them and join once, not once a chunk.
    this.waiting.push(chunk);
    this.waitingBytes += chunk.length;
    if (this.buffered.length + this.waitingBytes < this.needed) return;
    this.buffered = Buffer.concat([this.buffered, ...this.waiting]);
    this.waiting = [];
    this.waitingBytes = 0;
    this.needed = 0;
    while (this.buffered.length >= 32) {
      const kind = this.buffered.readUInt8(0);
      // Replies and generic events (35) carry extra length; errors and other events are 32 bytes.
      const long = kind === 1 || (kind & 0x7f) === 35;
      const size = long ? 32 + this.buffered.readUInt32LE(4) * 4 : 32;
      if (this.buffered.length < size) {
        this.needed = size;
        return;
      }
      const packet = this.buffered.subarray(0, size);
      this.buffered = this.buffered.subarray(size);
      if (kind > 1) {
        // Events go to whoever listens (the workflow recorder's input events); replies and errors below.
        this.onEvent?.(Buffer.from(packet));
        continue;
      }
      const sequence = packet.readUInt16LE(2);
      const index = this.pending.findIndex((waiting) => waiting.sequence === sequence);
      const waiting = index < 0 ? undefined : this.pending.splice(index, 1)[0];
      if (waiting === undefined) continue;
      if (kind === 0) waiting.reject(new X11Error(packet.readUInt8(1), waiting.request));
      else waiting.resolve(Buffer.from(packet));
    }
  }
}

function setupRequest(cookie: { name: string; data: Buffer } | undefined): Buffer {
  const name = Buffer.from(cookie?.name ?? '', 'latin1');
  const data = cookie?.data ?? Buffer.alloc(0);
  const head = Buffer.alloc(12);
  head.write('l', 0, 'latin1'); // little-endian
  head.writeUInt16LE(11, 2);
  head.writeUInt16LE(0, 4);
  head.writeUInt16LE(name.length, 6);
  head.writeUInt16LE(data.length, 8);
  return Buffer.concat([head, name, Buffer.alloc(pad(name.length)), data, Buffer.alloc(pad(data.length))]);
}

/** The root window of screen `screen`, from the connection setup reply. */
export function parseSetup(reply: Buffer, screen: number): number {
  const status = reply.readUInt8(0);
  if (status !== 1) {
    const reason = status === 0 ? reply.subarray(8, 8 + reply.readUInt8(1)).toString('latin1') : 'the server asked for more authentication';
    throw new Error(`the X server refused the connection: ${reason.trim()}`);
  }
  const vendorLength = reply.readUInt16LE(24);
  const screens = reply.readUInt8(28);
  const formats = reply.readUInt8(29);
  let offset = 40 + vendorLength + pad(vendorLength) + formats * 8;
  if (screen >= screens) throw new Error(`the X server has no screen ${screen}`);
  for (let index = 0; index < screen; index += 1) {
    const depths = reply.readUInt8(offset + 39);
    offset += 40;
    for (let depth = 0; depth < depths; depth += 1) offset += 8 + reply.readUInt16LE(offset + 2) * 24;
  }
  return reply.readUInt32LE(offset);
}

/**
 * The D-Bus wire's error paths, against sockets that misbehave on purpose: none may leave a
 * socket or timer behind (that is what kept `deskpilot apps` alive for ever), and none may
 * surface as an uncaught 'error' event.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DbusCallError, DbusConnection, DbusDisconnectedError, DbusTimeoutError, PropertyPick, Variant, type Signal } from '../../../../native/linux/dbus';
import { MESSAGE_TYPE, decodeMessage, encodeMessage, messageLength, type WireMessage } from '../../../../native/linux/dbus-message';

/**
 * A deadline far beyond the test's own timeout: a rejection that arrives at all came from the
 * broken socket, never from the timer, which is what "at once" means without reading a clock.
 */
const NEVER_MS = 600_000;

function socketPath(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-dbus-')), 'bus');
}

/**
 * A fake bus listening on `file`: it answers the auth handshake, calls `begun` once BEGIN has come,
 * then hands `answer` each whole call it reads, with the socket to reply on.
 */
function fakeBus(file: string, answer: (call: WireMessage, socket: Socket) => void, begun: (socket: Socket) => void = () => undefined): Server {
  return createServer((socket) => {
    let input = Buffer.alloc(0);
    let started = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      input = Buffer.concat([input, chunk]);
      if (!started) {
        const text = input.toString('latin1');
        if (text.includes('AUTH') && !text.includes('BEGIN')) socket.write('OK 0123456789abcdef\r\n');
        const begin = text.indexOf('BEGIN\r\n');
        if (begin < 0) return;
        started = true;
        input = input.subarray(begin + 7);
        begun(socket);
      }
      for (let length = messageLength(input, 0); length !== undefined && input.length >= length; length = messageLength(input, 0)) {
        const call = decodeMessage(input.subarray(0, length));
        input = input.subarray(length);
        answer(call, socket);
      }
    });
  }).listen(file);
}

describe('DbusConnection on a broken bus', () => {
  it('rejects at once, typed, when nothing listens on the socket', async () => {
    await expect(DbusConnection.connect(`unix:path=${socketPath()}`, NEVER_MS)).rejects.toBeInstanceOf(DbusDisconnectedError);
  });

  it('rejects an address it cannot read', async () => {
    await expect(DbusConnection.connect('carrier-pigeon:coop=1', 500)).rejects.toBeInstanceOf(DbusDisconnectedError);
  });

  it('times out on a bus that accepts and never answers, and closes its socket', async () => {
    const file = socketPath();
    const sockets: Socket[] = [];
    const closed = new Promise<void>((resolve) => {
      const server = createServer((socket) => {
        sockets.push(socket);
        // Read and drop the handshake, so the client's hang-up is seen.
        socket.resume();
        socket.on('close', () => {
          server.close();
          resolve();
        });
      }).listen(file);
    });
    await expect(DbusConnection.connect(`unix:path=${file}`, 200)).rejects.toBeInstanceOf(DbusTimeoutError);
    // The client hung up by itself: nothing of it is left to keep a process running.
    await closed;
    expect(sockets).toHaveLength(1);
  });

  it('fails waiting calls at once when the bus hangs up, instead of at their timeout', async () => {
    const file = socketPath();
    const server = createServer((socket) => {
      // Accept the handshake's first bytes, then hang up mid-conversation.
      socket.once('data', () => socket.destroy());
    }).listen(file);
    await expect(DbusConnection.connect(`unix:path=${file}`, NEVER_MS)).rejects.toBeInstanceOf(DbusDisconnectedError);
    server.close();
  });
});

/** What the bus below answers to GetAll(x.Y). */
const ALL_PROPERTIES = {
  Parent: new Variant('(so)', [':1.9', '/p']),
  Attributes: new Variant('a{ss}', { tag: 'td', display: 'table-cell' }),
  Name: new Variant('s', 'Nämé'),
  ChildCount: new Variant('i', 3),
};

/**
 * A bus that authenticates, then answers each call (Echo returns its body, Fail an error, a
 * Properties Get (ss) a variant of its two strings, Hang nothing) one byte per write, with a
 * signal before each reply: replies must be framed whatever the chunks.
 */
function byteByByteBus(file: string, chunkBytes = 1): { close: () => void } {
  let serial = 100;
  const server = fakeBus(file, (call, socket) => {
    const send = (message: Omit<WireMessage, 'serial'>): void => {
      serial += 1;
      const bytes = encodeMessage({ ...message, serial });
      for (let at = 0; at < bytes.length; at += chunkBytes) socket.write(bytes.subarray(at, at + chunkBytes));
    };
    send({ type: MESSAGE_TYPE.signal, path: '/s', interface: 'x.Signal', member: 'Tick', sender: ':1.0', signature: 'i', body: [call.serial] });
    if (call.member === 'Hang') return;
    if (call.member === 'Fail') send({ type: MESSAGE_TYPE.error, replySerial: call.serial, errorName: 'x.Error.Nope', signature: 's', body: ['no'] });
    else if (call.member === 'GetAll' && call.body?.[0] === 'x.Y')
      send({ type: MESSAGE_TYPE.methodReturn, replySerial: call.serial, signature: 'a{sv}', body: [ALL_PROPERTIES] });
    else if (call.member === 'GetAll' && call.body?.[0] === 'x.Broken') {
      // A dictionary that claims more bytes than its message holds.
      const bytes = encodeMessage({ type: MESSAGE_TYPE.methodReturn, serial: (serial += 1), replySerial: call.serial, signature: 'a{sv}', body: [{}] });
      // Its body is the length (0) and 4 bytes of padding to the first entry.
      bytes.writeUInt32LE(64, bytes.length - 8);
      socket.write(bytes);
    } else if (call.member === 'Get' && call.signature === 'ss')
      send({ type: MESSAGE_TYPE.methodReturn, replySerial: call.serial, signature: 'v', body: [new Variant('s', (call.body ?? []).join('.'))] });
    else
      send({
        type: MESSAGE_TYPE.methodReturn,
        replySerial: call.serial,
        ...(call.signature === undefined ? {} : { signature: call.signature, body: call.body ?? [] }),
      });
  });
  return { close: () => server.close() };
}

describe('DbusConnection on a working bus', () => {
  it('answers a call group slot by slot, each read as asked, failures in their slots, and never rejects', async () => {
    const file = socketPath();
    const bus = byteByByteBus(file, 7);
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    try {
      const target = { destination: ':1.9', path: '/o', interface: 'x.Y' };
      const properties = { destination: ':1.9', path: '/o', interface: 'org.freedesktop.DBus.Properties' };
      const pick = new PropertyPick(['Name', 'ChildCount']);
      const results = await connection.callGroup(
        [
          { ...target, member: 'Echo', signature: 'sai', body: ['héllo', [1, -2]] },
          { ...target, member: 'Fail' },
          { ...properties, member: 'Get', signature: 'ss', body: ['x.Y', 'Name'] },
          { ...properties, member: 'GetAll', signature: 's', body: ['x.Y'] },
          // A body that does not fit its signature fails its own slot, at once.
          { ...target, member: 'Echo', signature: 'ii', body: [1] },
        ],
        ['body', 'body', 'unwrap', pick, 'body'],
        NEVER_MS,
      );
      expect(results[0]).toEqual(['héllo', [1, -2]]);
      expect(results[1]).toBeInstanceOf(DbusCallError);
      expect(results[2]).toBe('x.Y.Name');
      expect(results[3]).toEqual(['Nämé', 3]);
      expect(results[4]).toBeInstanceOf(Error);
      expect(await connection.callGroup([], [], NEVER_MS)).toEqual([]);
      // A call that gets no answer times out in its slot; the others keep their answers.
      const late = await connection.callGroup(
        [
          { ...target, member: 'Echo', signature: 'u', body: [5] },
          { ...target, member: 'Hang' },
        ],
        [],
        100,
      );
      expect(late[0]).toEqual([5]);
      expect(late[1]).toBeInstanceOf(DbusTimeoutError);
      // Gone: every slot says so, typed.
      connection.close();
      const closed = await connection.callGroup(
        [
          { ...target, member: 'Echo' },
          { ...target, member: 'Echo' },
        ],
        [],
        NEVER_MS,
      );
      expect(closed.every((result) => result instanceof DbusDisconnectedError)).toBe(true);
    } finally {
      connection.close();
      bus.close();
    }
  });

  it('fails the slots still waiting when the connection drops mid-group', async () => {
    const file = socketPath();
    const bus = byteByByteBus(file, 16);
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    try {
      const target = { destination: ':1.9', path: '/o', interface: 'x.Y' };
      const waiting = connection.callGroup(
        [
          { ...target, member: 'Echo', signature: 'u', body: [1] },
          { ...target, member: 'Hang' },
        ],
        [],
        NEVER_MS,
      );
      // The first slot's answer is in before the hang-up: it keeps it.
      await connection.call({ ...target, member: 'Echo' }, NEVER_MS);
      connection.close();
      const [answered, hung] = await waiting;
      expect(answered).toEqual([1]);
      expect(hung).toBeInstanceOf(DbusDisconnectedError);
    } finally {
      connection.close();
      bus.close();
    }
  });
  it('drops the connection on a GetAll reply that runs past its message, failing the call typed, at once', async () => {
    const file = socketPath();
    const bus = byteByByteBus(file, 16);
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    try {
      const pick = new PropertyPick(['Name']);
      await expect(connection.getProperties(':1.9', '/o', 'x.Broken', pick, NEVER_MS)).rejects.toBeInstanceOf(DbusDisconnectedError);
      expect(connection.closed).toContain('unreadable D-Bus data');
    } finally {
      connection.close();
      bus.close();
    }
  });

  it('frames replies sent a byte at a time, and keeps calls, errors and signals apart', async () => {
    const file = socketPath();
    const bus = byteByByteBus(file);
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    const signals: Signal[] = [];
    connection.onSignal((signal) => signals.push(signal));
    try {
      const target = { destination: ':1.9', path: '/o', interface: 'x.Y' };
      const [echoed, failed] = await Promise.allSettled([
        connection.call({ ...target, member: 'Echo', signature: 'sai', body: ['héllo', [1, -2]] }),
        connection.call({ ...target, member: 'Fail' }),
      ]);
      expect(echoed).toEqual({ status: 'fulfilled', value: ['héllo', [1, -2]] });
      expect(failed.status === 'rejected' && failed.reason instanceof DbusCallError && failed.reason.errorName === 'x.Error.Nope').toBe(true);
      expect(signals.map((signal) => signal.member)).toEqual(['Tick', 'Tick']);
    } finally {
      connection.close();
      bus.close();
    }
  });

  it('joins a reply of megabytes sent in many chunks, and the messages around it', async () => {
    const file = socketPath();
    const bus = byteByByteBus(file, 4093);
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    try {
      const target = { destination: ':1.9', path: '/o', interface: 'x.Y' };
      const big = Array.from({ length: 20_000 }, (_, index) => `row ${index} ${'é'.repeat(index % 50)}`);
      const [first, echoed, last] = await Promise.all([
        connection.call({ ...target, member: 'Echo', signature: 's', body: ['before'] }),
        connection.call({ ...target, member: 'Echo', signature: 'as', body: [big] }),
        connection.call({ ...target, member: 'Echo', signature: 's', body: ['after'] }),
      ]);
      expect(first).toEqual(['before']);
      expect(echoed).toEqual([big]);
      expect(last).toEqual(['after']);
    } finally {
      connection.close();
      bus.close();
    }
  });

  it("gives a property's value out of its variant, and times a call out after the ones before it were answered", async () => {
    const file = socketPath();
    const bus = byteByByteBus(file, 64);
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    try {
      const [name, echoed] = await Promise.all([
        connection.getProperty(':1.9', '/o', 'x.Y', 'Name', NEVER_MS),
        connection.call({ destination: ':1.9', path: '/o', interface: 'x.Y', member: 'Echo', signature: 'u', body: [7] }, NEVER_MS),
      ]);
      expect(name).toBe('x.Y.Name');
      expect(echoed).toEqual([7]);
      // GetAll read for the properties asked, in their order, as their variants hold them; a reply of another shape has none.
      const pick = new PropertyPick(['ChildCount', 'Name', 'Description', 'Parent']);
      const [all, other] = await Promise.all([
        connection.getProperties(':1.9', '/o', 'x.Y', pick, NEVER_MS),
        connection.call(
          { destination: ':1.9', path: '/o', interface: 'org.freedesktop.DBus.Properties', member: 'GetAll', signature: 's', body: ['x.Y'] },
          NEVER_MS,
        ),
      ]);
      expect(all).toEqual([3, 'Nämé', undefined, [':1.9', '/p']]);
      expect(all).toEqual(pick.names.map((key) => (other[0] as Record<string, Variant | undefined>)[key]?.value));
      expect(await connection.getProperties(':1.9', '/o', 'x.Z', pick, NEVER_MS)).toEqual([undefined, undefined, undefined, undefined]);
      // Nothing waits now, and the timer set for the calls above may still be set: a new call keeps its own deadline.
      await expect(connection.call({ destination: ':1.9', path: '/o', interface: 'x.Y', member: 'Hang' }, 50)).rejects.toBeInstanceOf(DbusTimeoutError);
    } finally {
      connection.close();
      bus.close();
    }
  });
});

describe('DbusConnection writing to a peer that stops reading', () => {
  it('sends every call intact when the socket holds batches back (its batch buffer is reused only once written)', async () => {
    const file = socketPath();
    // Reads nothing until `resume`, so the kernel's buffer fills and later batches wait in the socket.
    let resume: () => void = () => undefined;
    let serial = 100;
    const server = fakeBus(
      file,
      (call, socket) => {
        serial += 1;
        socket.write(
          encodeMessage({ type: MESSAGE_TYPE.methodReturn, serial, replySerial: call.serial, signature: call.signature ?? '', body: call.body ?? [] }),
        );
      },
      (socket) => {
        resume = () => socket.resume();
        socket.pause();
      },
    );
    const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
    try {
      const target = { destination: ':1.9', path: '/o', interface: 'x.Y', member: 'Echo', signature: 's' };
      const text = (index: number): string => `${index}:${String.fromCharCode(97 + (index % 26)).repeat(900 + (index % 200))}`;
      const replies: Promise<unknown[]>[] = [];
      // Many turns, each its own batch: the first ones go to the kernel at once, the rest wait in the socket.
      for (let turn = 0; turn < 200; turn += 1) {
        for (let index = turn * 10; index < turn * 10 + 10; index += 1) replies.push(connection.call({ ...target, body: [text(index)] }, NEVER_MS));
        await new Promise((resolve) => setImmediate(resolve));
      }
      resume();
      const answers = await Promise.all(replies);
      answers.forEach((answer, index) => expect(answer).toEqual([text(index)]));
    } finally {
      connection.close();
      server.close();
    }
  });
});

/**
 * A peer that answers each call in one of many hostile ways, picked by a seeded generator: no
 * answer, a body of another signature, an error, a reply to the next serial (another slot's),
 * the same reply twice, a byte of the body changed. The bus's own calls are answered plainly.
 */
function hostilePeer(file: string, seed: number): { close: () => void } {
  let state = seed;
  const next = (): number => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  let serial = 100;
  const server = fakeBus(file, (call, socket) => {
    serial += 1;
    if (call.destination === 'org.freedesktop.DBus') {
      socket.write(encodeMessage({ type: MESSAGE_TYPE.methodReturn, serial, replySerial: call.serial, signature: 's', body: [':1.1'] }));
      return;
    }
    const roll = next();
    if (roll < 0.1) return;
    const right = call.member === 'GetAll' ? { signature: 'a{sv}', body: [ALL_PROPERTIES] } : { signature: 'v', body: [new Variant('s', 'x')] };
    const { signature, body } = roll < 0.2 ? { signature: 'u', body: [7] } : right;
    const error = roll >= 0.2 && roll < 0.25;
    let bytes = encodeMessage({
      type: error ? MESSAGE_TYPE.error : MESSAGE_TYPE.methodReturn,
      serial,
      replySerial: roll >= 0.25 && roll < 0.3 ? call.serial + 1 : call.serial,
      ...(error ? { errorName: 'x.Error.Nope' } : {}),
      signature,
      body,
    });
    if (roll > 0.6) {
      bytes = Buffer.from(bytes);
      bytes[bytes.length - 1 - Math.floor(next() * Math.min(40, bytes.length - 16))] = Math.floor(next() * 256);
    }
    socket.write(bytes);
    if (roll > 0.5 && roll < 0.55) socket.write(bytes);
  });
  return { close: () => server.close() };
}

describe('DbusConnection against a hostile peer', () => {
  it('settles every slot of every group, with its value or a typed error, and drops the connection on a body that does not parse', async () => {
    const pick = new PropertyPick(['Name', 'ChildCount', 'Parent']);
    const properties = { destination: ':1.9', path: '/o', interface: 'org.freedesktop.DBus.Properties' };
    const calls = [
      { ...properties, member: 'GetAll', signature: 's', body: ['x.Y'] },
      { ...properties, member: 'Get', signature: 'ss', body: ['x.Y', 'Name'] },
      { ...properties, member: 'GetAll', signature: 's', body: ['x.Y'] },
    ];
    let dropped = 0;
    for (let seed = 1; seed <= 6; seed += 1) {
      const file = socketPath();
      const peer = hostilePeer(file, seed);
      const connection = await DbusConnection.connect(`unix:path=${file},guid=0123`, NEVER_MS);
      try {
        for (let group = 0; group < 30 && connection.closed === undefined; group += 1) {
          const results = await connection.callGroup(calls, [pick, 'unwrap', pick], 50);
          expect(results).toHaveLength(3);
          for (const result of results) {
            if (result instanceof Error) expect([DbusCallError, DbusTimeoutError, DbusDisconnectedError].some((kind) => result instanceof kind)).toBe(true);
            else if (Array.isArray(result)) expect(result).toHaveLength(3);
          }
        }
        if (connection.closed !== undefined) {
          dropped += 1;
          expect(connection.closed).toContain('unreadable D-Bus data');
        }
      } finally {
        connection.close();
        peer.close();
      }
    }
    expect(dropped).toBeGreaterThan(0);
  });
});

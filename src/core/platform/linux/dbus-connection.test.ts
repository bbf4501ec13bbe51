/**
 * The D-Bus wire's error paths, against sockets that misbehave on purpose: none may leave a
 * socket or timer behind (that is what kept `deskpilot apps` alive for ever), and none may
 * surface as an uncaught 'error' event.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DbusConnection, DbusDisconnectedError, DbusTimeoutError } from '../../../../native/linux/dbus';

/**
 * A deadline far beyond the test's own timeout: a rejection that arrives at all came from the
 * broken socket, never from the timer, which is what "at once" means without reading a clock.
 */
const NEVER_MS = 600_000;

function socketPath(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-dbus-')), 'bus');
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

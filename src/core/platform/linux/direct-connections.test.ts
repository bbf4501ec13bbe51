import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DbusCallError, type MethodCall } from '../../../../native/linux/dbus';
import { DirectConnections, directSocketAddress } from './direct-connections';

describe('directSocketAddress', () => {
  it('takes only a plain socket file the app names', () => {
    expect(directSocketAddress('unix:path=/run/user/1000/at-spi2-XY12/socket')).toBe('unix:path=/run/user/1000/at-spi2-XY12/socket');
    expect(directSocketAddress('unix:path=/tmp/at-spi2-socket-42,guid=0af3')).toBeDefined();
    for (const hostile of [
      'unix:abstract=/tmp/x',
      'tcp:host=10.0.0.1,port=1',
      'unix:path=relative/socket',
      'unix:path=/a/../b',
      'unix:path=/a b',
      42,
      `unix:path=/${'a'.repeat(600)}`,
    ])
      expect(directSocketAddress(hostile)).toBeUndefined();
  });
});

describe('DirectConnections', () => {
  it('asks an app once, and leaves it on the bus when its socket does not answer', async () => {
    const connections = new DirectConnections();
    const asked: MethodCall[] = [];
    const ask = (call: MethodCall): Promise<unknown[]> => (
      asked.push(call),
      Promise.resolve([`unix:path=${path.join(mkdtempSync(path.join(tmpdir(), 'dp-')), 'none')}`])
    );
    await connections.open(':1.7', ask);
    await connections.open(':1.7', ask);
    expect(asked.map((call) => call.member)).toEqual(['GetApplicationBusAddress']);
    expect(connections.get(':1.7')).toBeUndefined();
  });

  it('says a direct socket that closes mid-call as the bus says an app that died (NoReply), and drops it', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'dp-')), 'app');
    let hangUp = (): void => undefined;
    // An app that authenticates, answers the first message (the connect's ping), then hangs up on the next.
    const server = createServer((socket) => {
      let seen = 0;
      socket.on('data', (chunk: Buffer) => {
        const text = chunk.toString('latin1');
        if (text.includes('AUTH')) socket.write('OK 0123456789abcdef\r\n');
        if (text.includes('BEGIN')) seen += 1;
        if (seen > 0 && chunk.includes(Buffer.from('Ping'))) {
          // A method return for serial 1, no body.
          socket.write(Buffer.from([0x6c, 2, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 5, 1, 0x75, 0, 1, 0, 0, 0]));
          hangUp = () => socket.destroy();
        }
      });
    }).listen(file);
    const connections = new DirectConnections();
    await connections.open(':1.8', () => Promise.resolve([`unix:path=${file}`]));
    const connection = connections.get(':1.8');
    expect(connection).toBeDefined();
    if (connection === undefined) return;
    const pending = connection.call({ destination: ':1.8', path: '/', interface: 'x.Y', member: 'Z' }, 60_000);
    hangUp();
    await expect(pending).rejects.toSatisfy((error) => error instanceof DbusCallError && error.errorName === 'org.freedesktop.DBus.Error.NoReply');
    expect(connections.get(':1.8')).toBeUndefined();
    connections.close();
    server.close();
  });
});

/**
 * A stand-in for a Qt app's accessibility bridge behind a direct socket, for measuring the D-Bus
 * client alone (bench/dbus-client-cpu.ts): it answers every call at once, the replies to one
 * chunk in one write, with the replies a Qt read gets (GetRole, GetState, a property's variant,
 * GetChildren), each carrying a sender and destination as the bus daemon's do.
 */
import { createServer, type Server } from 'node:net';
import { Variant } from '../../../../../native/linux/dbus-variant';
import { Writer } from '../../../../../native/linux/dbus-writer';
import { MESSAGE_TYPE, decodeMessage, messageLength, writeMessage } from '../../../../../native/linux/dbus-message';

/** The peer: answers each call as a Qt app's bridge would, replies of one chunk in one write. */
export function serveLikeQt(file: string, listening: () => void): Server {
  const children: [string, string][] = [1, 2, 3].map((index) => [':1.42', `/org/a11y/atspi/accessible/${index}`]);
  const answers: Record<string, { signature: string; body: unknown[] }> = {
    GetRole: { signature: 'u', body: [43] },
    GetState: { signature: 'au', body: [[0x1000100, 0x2]] },
    Get: { signature: 'v', body: [new Variant('s', 'Open a file')] },
    GetChildren: { signature: 'a(so)', body: [children] },
    Ping: { signature: '', body: [] },
  };
  return createServer((socket) => {
    let pending = Buffer.alloc(0);
    // The handshake: the AUTH line gets OK, then BEGIN, after which messages flow.
    let stage: 'auth' | 'begin' | 'messages' = 'auth';
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (stage === 'auth') {
        const end = pending.indexOf('\r\n');
        if (end < 0) return;
        socket.write('OK 0123456789abcdef0123456789abcdef\r\n');
        pending = pending.subarray(end + 2);
        stage = 'begin';
      }
      if (stage === 'begin') {
        const end = pending.indexOf('BEGIN\r\n');
        if (end < 0) return;
        pending = pending.subarray(end + 7);
        stage = 'messages';
      }
      const writer = new Writer(64 * 1024);
      let offset = 0;
      for (;;) {
        const length = messageLength(pending, offset);
        if (length === undefined || pending.length - offset < length) break;
        const call = decodeMessage(pending, offset, length);
        offset += length;
        if (call.type !== MESSAGE_TYPE.methodCall) continue;
        const answer = answers[call.member ?? ''] ?? answers['Ping'];
        writeMessage(writer, {
          type: MESSAGE_TYPE.methodReturn,
          serial: call.serial,
          replySerial: call.serial,
          destination: ':1.7',
          sender: ':1.42',
          signature: answer?.signature,
          body: answer?.body,
        });
      }
      pending = Buffer.from(pending.subarray(offset));
      if (writer.at > 0) socket.write(writer.buffer.subarray(0, writer.at));
    });
  }).listen(file, listening);
}

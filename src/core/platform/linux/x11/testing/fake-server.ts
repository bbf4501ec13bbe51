/**
 * Test helper: a scripted X server on a local TCP port (display 127.0.0.1:N), speaking just what
 * activate-window, capture and window-at send. Used only by tests.
 */
import net from 'node:net';

export const ROOT = 0x100;

export interface FakeXServer {
  display: string;
  /** Properties by window, then by atom name: 32-bit values, or a string (8-bit UTF-8). */
  properties: Map<number, Map<string, number[] | string>>;
  /** Requests by opcode with their bodies, in order. */
  requests: { opcode: number; data: number; body: Buffer }[];
  /** The root's children (QueryTree), and which of them are mapped (GetWindowAttributes). */
  children: number[];
  /** The children of other windows (a window manager's frames holding their clients). */
  tree: Map<number, number[]>;
  viewable: Set<number>;
  /** Where windows sit on the screen (GetGeometry, TranslateCoordinates); the root is 1024×768. */
  geometry: Map<number, { x: number; y: number; width: number; height: number }>;
  /**
   * Each window's one colour (0xRRGGBB). GetImage on the root paints the windows of `stacking`
   * bottom to top, so a window shows where nothing above it covers it.
   */
  colors: Map<number, number>;
  stacking: number[];
  /** When set, the connection setup fails with this reason (a wrong cookie, say). */
  refuse?: string;
  /** Opcodes answered with an X error (code 3, BadWindow). */
  failing: Set<number>;
  atomName(atom: number): string | undefined;
  close(): Promise<void>;
}

function setupReply(): Buffer {
  const body = Buffer.alloc(76);
  body.writeUInt16LE(4, 16); // vendor length
  body.writeUInt8(1, 20); // one screen
  body.write('fake', 32, 'latin1');
  body.writeUInt32LE(ROOT, 36);
  const head = Buffer.from([1, 0, 11, 0, 0, 0, 0, 0]);
  head.writeUInt16LE(body.length / 4, 6);
  return Buffer.concat([head, body]);
}

function refusal(reason: string): Buffer {
  const text = Buffer.from(reason, 'latin1');
  const padded = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4)]);
  const head = Buffer.from([0, text.length, 11, 0, 0, 0, 0, 0]);
  head.writeUInt16LE(padded.length / 4, 6);
  return Buffer.concat([head, padded]);
}

export async function startFakeXServer(): Promise<FakeXServer> {
  const atoms: string[] = [];
  const fake: FakeXServer = {
    display: '',
    properties: new Map(),
    requests: [],
    children: [],
    tree: new Map(),
    viewable: new Set(),
    failing: new Set(),
    geometry: new Map(),
    colors: new Map(),
    stacking: [],
    atomName: (atom) => atoms[atom - 1],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  /** The screen as 32-bit BGRX pixels over a rectangle; fills in the reply's depth and length. */
  const image = (left: number, top: number, width: number, height: number, reply: Buffer): Buffer => {
    const pixels = Buffer.alloc(width * height * 4);
    for (let row = 0; row < height; row += 1) {
      for (let column = 0; column < width; column += 1) {
        const [x, y] = [left + column, top + row];
        let color = 0x202020;
        for (const window of fake.stacking) {
          const place = fake.geometry.get(window);
          if (place !== undefined && x >= place.x && x < place.x + place.width && y >= place.y && y < place.y + place.height)
            color = fake.colors.get(window) ?? color;
        }
        pixels.writeUInt32LE(color, (row * width + column) * 4);
      }
    }
    reply.writeUInt8(24, 1);
    reply.writeUInt32LE(pixels.length / 4, 4);
    return pixels;
  };
  const atomOf = (name: string): number => (atoms.includes(name) ? atoms.indexOf(name) : atoms.push(name) - 1) + 1;
  const server = net.createServer((socket) => {
    let buffered = Buffer.alloc(0);
    let setupDone = false;
    let sequence = 0;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!setupDone) {
        setupDone = true;
        buffered = Buffer.alloc(0);
        socket.write(fake.refuse === undefined ? setupReply() : refusal(fake.refuse));
        return;
      }
      while (buffered.length >= 4 && buffered.length >= buffered.readUInt16LE(2) * 4) {
        const size = buffered.readUInt16LE(2) * 4;
        const opcode = buffered.readUInt8(0);
        const data = buffered.readUInt8(1);
        const body = Buffer.from(buffered.subarray(4, size));
        buffered = buffered.subarray(size);
        sequence += 1;
        fake.requests.push({ opcode, data, body });
        const reply = Buffer.alloc(32);
        reply.writeUInt16LE(sequence, 2);
        if (fake.failing.has(opcode)) {
          reply.writeUInt8(3, 1);
          socket.write(reply);
          continue;
        }
        reply.writeUInt8(1, 0);
        if (opcode === 16) {
          reply.writeUInt32LE(atomOf(body.subarray(4, 4 + body.readUInt16LE(0)).toString('latin1')), 8);
          socket.write(reply);
        } else if (opcode === 20) {
          const values = fake.properties.get(body.readUInt32LE(0))?.get(fake.atomName(body.readUInt32LE(4)) ?? '');
          if (values === undefined) {
            socket.write(reply);
            continue;
          }
          const text = typeof values === 'string' ? Buffer.from(values, 'utf8') : undefined;
          const value = text ?? Buffer.alloc((values as number[]).length * 4);
          if (text === undefined) (values as number[]).forEach((each, index) => value.writeUInt32LE(each, index * 4));
          const padded = Buffer.concat([value, Buffer.alloc((4 - (value.length % 4)) % 4)]);
          reply.writeUInt8(text === undefined ? 32 : 8, 1);
          reply.writeUInt32LE(padded.length / 4, 4);
          reply.writeUInt32LE(6, 8);
          reply.writeUInt32LE(text === undefined ? value.length / 4 : value.length, 16);
          socket.write(Buffer.concat([reply, padded]));
        } else if (opcode === 15) {
          const window = body.readUInt32LE(0);
          const children = window === ROOT ? fake.children : (fake.tree.get(window) ?? []);
          reply.writeUInt32LE(children.length, 4);
          reply.writeUInt16LE(children.length, 16);
          const list = Buffer.alloc(children.length * 4);
          children.forEach((each, index) => list.writeUInt32LE(each, index * 4));
          socket.write(Buffer.concat([reply, list]));
        } else if (opcode === 3) {
          const attributes = Buffer.alloc(44);
          reply.copy(attributes);
          attributes.writeUInt32LE(3, 4);
          attributes.writeUInt8(fake.viewable.has(body.readUInt32LE(0)) ? 2 : 0, 26);
          socket.write(attributes);
        } else if (opcode === 43) {
          socket.write(reply);
        } else if (opcode === 14 || opcode === 40) {
          const window = body.readUInt32LE(0);
          const place = window === ROOT ? { x: 0, y: 0, width: 1024, height: 768 } : (fake.geometry.get(window) ?? { x: 0, y: 0, width: 1, height: 1 });
          if (opcode === 14) {
            reply.writeUInt16LE(place.width, 16);
            reply.writeUInt16LE(place.height, 18);
          } else {
            reply.writeInt16LE(place.x + body.readInt16LE(8), 12);
            reply.writeInt16LE(place.y + body.readInt16LE(10), 14);
          }
          socket.write(reply);
        } else if (opcode === 73) {
          socket.write(Buffer.concat([reply, image(body.readInt16LE(4), body.readInt16LE(6), body.readUInt16LE(8), body.readUInt16LE(10), reply)]));
        }
      }
    });
  });
  // Display N listens on TCP port 6000 + N; a busy port moves on to the next number.
  for (let number = 3000 + Math.floor(Math.random() * 5000); ; number += 1) {
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(6000 + number, '127.0.0.1', () => resolve(true));
    });
    if (!listening) continue;
    fake.display = `127.0.0.1:${number}`;
    return fake;
  }
}

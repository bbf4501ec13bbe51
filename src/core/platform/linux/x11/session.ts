import { X11Connection } from './connection';

/** Core X11 opcodes this folder sends. */
export const OPCODE = {
  getWindowAttributes: 3,
  configureWindow: 12,
  getGeometry: 14,
  queryTree: 15,
  internAtom: 16,
  getProperty: 20,
  sendEvent: 25,
  translateCoordinates: 40,
  setInputFocus: 42,
  getImage: 73,
} as const;
const ANY_TYPE = 0;
const VIEWABLE = 2;

export interface WindowMatch {
  pid: number;
  /** AT-SPI window titles of the app: the fallback for windows that do not carry _NET_WM_PID. */
  titles: readonly string[];
}

export function words(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => buffer.writeUInt32LE(value >>> 0, index * 4));
  return buffer;
}

const CLIENT_MESSAGE = 33;
const SUBSTRUCTURE_NOTIFY = 1 << 19;
const SUBSTRUCTURE_REDIRECT = 1 << 20;
/** EWMH source indication 2, "pager": window managers honour it without focus-stealing prevention. */
export const SOURCE_PAGER = 2;

/** A 32-bit ClientMessage event about `window`, of message `type`, with up to five data words. */
export function clientMessage(window: number, type: number, ...data: number[]): Buffer {
  const padded = [...data, 0, 0, 0, 0, 0].slice(0, 5);
  return Buffer.concat([Buffer.from([CLIENT_MESSAGE, 32, 0, 0]), words(window, type, ...padded)]);
}

/**
 * Opens a connection, finds the app's top-level window (by _NET_WM_PID, else title) and runs
 * `act` on it; 'no-window' when the app has none. The connection is closed either way.
 */
export async function withAppWindow<T>(
  env: Record<string, string | undefined>,
  match: WindowMatch,
  timeoutMs: number,
  act: (session: X11Session, window: number, managed: boolean) => Promise<T>,
): Promise<T | 'no-window'> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const { windows, managed } = await session.topLevel();
    const window = await pick(session, windows, match);
    return window === undefined ? 'no-window' : await act(session, window, managed);
  } finally {
    x.close();
  }
}

/** Window lookups over one connection, with interned atoms remembered. */
export class X11Session {
  private readonly atoms = new Map<string, number>();
  constructor(readonly x: X11Connection) {}

  /** Sends an EWMH request (`_NET_ACTIVE_WINDOW`, `_NET_CLOSE_WINDOW`) about `window` to the window manager, through the root window. */
  async askWindowManager(window: number, message: string, ...data: number[]): Promise<void> {
    const event = clientMessage(window, await this.atom(message), ...data);
    await this.x.sendChecked(
      OPCODE.sendEvent,
      0,
      Buffer.concat([words(this.x.root, SUBSTRUCTURE_REDIRECT | SUBSTRUCTURE_NOTIFY), event]),
      `SendEvent(${message})`,
    );
  }

  async atom(name: string): Promise<number> {
    const known = this.atoms.get(name);
    if (known !== undefined) return known;
    const text = Buffer.from(name, 'latin1');
    const body = Buffer.concat([Buffer.from([text.length & 0xff, text.length >> 8, 0, 0]), text, Buffer.alloc((4 - (text.length % 4)) % 4)]);
    // only-if-exists: an atom no client ever made means no window has that property.
    const atom = (await this.x.request(OPCODE.internAtom, 1, body, `InternAtom(${name})`)).readUInt32LE(8);
    this.atoms.set(name, atom);
    return atom;
  }

  /** A property's raw value, or undefined when the window lacks it or has gone away. */
  async property(window: number, name: string): Promise<{ format: number; value: Buffer } | undefined> {
    const atom = await this.atom(name);
    if (atom === 0) return undefined;
    const reply = await this.x.request(OPCODE.getProperty, 0, words(window, atom, ANY_TYPE, 0, 4096), `GetProperty(${name})`).catch(() => undefined);
    if (reply === undefined || reply.readUInt32LE(8) === 0) return undefined;
    const format = reply.readUInt8(1);
    const length = reply.readUInt32LE(16) * (format / 8);
    return { format, value: reply.subarray(32, 32 + length) };
  }

  async windows(window: number, name: string): Promise<number[] | undefined> {
    const property = await this.property(window, name);
    if (property?.format !== 32) return undefined;
    return Array.from({ length: property.value.length / 4 }, (_, index) => property.value.readUInt32LE(index * 4));
  }

  async pidOf(window: number): Promise<number | undefined> {
    return (await this.windows(window, '_NET_WM_PID'))?.[0];
  }

  async titleOf(window: number): Promise<string | undefined> {
    const utf8 = await this.property(window, '_NET_WM_NAME');
    if (utf8 !== undefined) return utf8.value.toString('utf8');
    return (await this.property(window, 'WM_NAME'))?.value.toString('latin1');
  }

  /** Mapped and shown: toolkits also give unmapped helper windows (GTK's client leader) the app's pid. */
  async viewable(window: number): Promise<boolean> {
    const reply = await this.x.request(OPCODE.getWindowAttributes, 0, words(window), 'GetWindowAttributes').catch(() => undefined);
    return reply?.readUInt8(26) === VIEWABLE;
  }

  async children(window: number): Promise<number[]> {
    const reply = await this.x.request(OPCODE.queryTree, 0, words(window), 'QueryTree');
    const count = reply.readUInt16LE(16);
    return Array.from({ length: count }, (_, index) => reply.readUInt32LE(32 + index * 4));
  }

  /** Top-level windows, bottom to top: the window manager's list, else the root's shown children (no window manager). */
  async topLevel(): Promise<{ windows: number[]; managed: boolean }> {
    const managed = (await this.windows(this.x.root, '_NET_CLIENT_LIST_STACKING')) ?? (await this.windows(this.x.root, '_NET_CLIENT_LIST'));
    if (managed !== undefined) return { windows: managed, managed: true };
    const shown: number[] = [];
    for (const child of await this.children(this.x.root)) if (await this.viewable(child)) shown.push(child);
    return { windows: shown, managed: false };
  }
}

/** The topmost window that is the app's: stacking order puts the one used last at the end. */
export async function pick(session: X11Session, candidates: number[], match: WindowMatch): Promise<number | undefined> {
  const top = [...candidates].reverse();
  for (const window of top) if ((await session.pidOf(window)) === match.pid) return window;
  for (const window of top) {
    const title = await session.titleOf(window);
    if (title !== undefined && title !== '' && match.titles.includes(title)) return window;
  }
  return undefined;
}

/** Whether a window is the app's: its _NET_WM_PID, else (no pid on it) one of the app's window titles. */
export async function belongsTo(session: X11Session, window: number, match: WindowMatch): Promise<boolean> {
  const pid = await session.pidOf(window);
  if (pid !== undefined) return pid === match.pid;
  const title = await session.titleOf(window);
  return title !== undefined && title !== '' && match.titles.includes(title);
}

import { X11Connection } from './connection';

/**
 * Asks the window manager to activate an app's top-level window, the way a taskbar does:
 * an EWMH `_NET_ACTIVE_WINDOW` client message with source 2 ("pager"), which window
 * managers honour without their focus-stealing prevention. The window is found by its
 * `_NET_WM_PID`, else by title. With no EWMH window manager running, the window is raised
 * and given the input focus directly.
 */

const OPCODE = { getWindowAttributes: 3, configureWindow: 12, queryTree: 15, internAtom: 16, getProperty: 20, sendEvent: 25, setInputFocus: 42 } as const;
const ANY_TYPE = 0;
const SUBSTRUCTURE_NOTIFY = 1 << 19;
const SUBSTRUCTURE_REDIRECT = 1 << 20;
const CLIENT_MESSAGE = 33;
const SOURCE_PAGER = 2;
const REVERT_TO_PARENT = 2;
const STACK_MODE = 0x40;
const VIEWABLE = 2;

export type ActivateOutcome = 'requested' | 'focused' | 'no-window';

export interface WindowMatch {
  pid: number;
  /** AT-SPI window titles of the app: the fallback for windows that do not carry _NET_WM_PID. */
  titles: readonly string[];
}

function words(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => buffer.writeUInt32LE(value >>> 0, index * 4));
  return buffer;
}

class Session {
  private readonly atoms = new Map<string, number>();
  constructor(readonly x: X11Connection) {}

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
}

/** The topmost window that is the app's: stacking order puts the one used last at the end. */
async function pick(session: Session, candidates: number[], match: WindowMatch): Promise<number | undefined> {
  const top = [...candidates].reverse();
  for (const window of top) if ((await session.pidOf(window)) === match.pid) return window;
  for (const window of top) {
    const title = await session.titleOf(window);
    if (title !== undefined && title !== '' && match.titles.includes(title)) return window;
  }
  return undefined;
}

export async function activateWindow(env: Record<string, string | undefined>, match: WindowMatch, timeoutMs = 1000): Promise<ActivateOutcome> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new Session(x);
    const managed = (await session.windows(x.root, '_NET_CLIENT_LIST_STACKING')) ?? (await session.windows(x.root, '_NET_CLIENT_LIST'));
    if (managed !== undefined) {
      const window = await pick(session, managed, match);
      if (window === undefined) return 'no-window';
      const event = Buffer.concat([Buffer.from([CLIENT_MESSAGE, 32, 0, 0]), words(window, await session.atom('_NET_ACTIVE_WINDOW'), SOURCE_PAGER, 0, 0, 0, 0)]);
      await x.sendChecked(
        OPCODE.sendEvent,
        0,
        Buffer.concat([words(x.root, SUBSTRUCTURE_REDIRECT | SUBSTRUCTURE_NOTIFY), event]),
        'SendEvent(_NET_ACTIVE_WINDOW)',
      );
      return 'requested';
    }
    // No window manager: top-level windows are the root's children, and nobody stops us focusing one.
    const shown: number[] = [];
    for (const child of await session.children(x.root)) if (await session.viewable(child)) shown.push(child);
    const window = await pick(session, shown, match);
    if (window === undefined) return 'no-window';
    await x.sendChecked(OPCODE.configureWindow, 0, Buffer.concat([words(window), Buffer.from([STACK_MODE, 0, 0, 0]), words(0)]), 'ConfigureWindow(raise)');
    await x.sendChecked(OPCODE.setInputFocus, REVERT_TO_PARENT, words(window, 0), 'SetInputFocus');
    return 'focused';
  } finally {
    x.close();
  }
}

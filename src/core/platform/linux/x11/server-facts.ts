/**
 * The two X11 facts `deskpilot doctor` reports, asked over our own X socket (no Xlib, which
 * would end the process on an X error): the EWMH window manager's name, and whether the
 * server has the XTEST extension nut-js sends synthetic input through.
 */
import { X11Connection } from './connection';

const INTERN_ATOM = 16;
const GET_PROPERTY = 20;
const QUERY_EXTENSION = 98;
const ANY_TYPE = 0;

function words(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => buffer.writeUInt32LE(value >>> 0, index * 4));
  return buffer;
}

/** A name as X11 requests carry it: its length, two unused bytes, then the text padded to four. */
function named(name: string): Buffer {
  const text = Buffer.from(name, 'latin1');
  return Buffer.concat([Buffer.from([text.length & 0xff, text.length >> 8, 0, 0]), text, Buffer.alloc((4 - (text.length % 4)) % 4)]);
}

async function atom(x: X11Connection, name: string): Promise<number> {
  // only-if-exists: an atom nobody made means no window carries that property.
  return (await x.request(INTERN_ATOM, 1, named(name), `InternAtom(${name})`)).readUInt32LE(8);
}

async function property(x: X11Connection, window: number, name: string): Promise<{ format: number; value: Buffer } | undefined> {
  const id = await atom(x, name);
  if (id === 0) return undefined;
  const reply = await x.request(GET_PROPERTY, 0, words(window, id, ANY_TYPE, 0, 1024), `GetProperty(${name})`).catch(() => undefined);
  if (reply === undefined || reply.readUInt32LE(8) === 0) return undefined;
  const format = reply.readUInt8(1);
  return { format, value: reply.subarray(32, 32 + reply.readUInt32LE(16) * (format / 8)) };
}

export interface X11Facts {
  /** The window manager's _NET_WM_NAME ('' when it gives none), or undefined without an EWMH window manager. */
  windowManager: string | undefined;
  xtest: boolean;
}

export async function x11Facts(env: Record<string, string | undefined>, timeoutMs = 1000): Promise<X11Facts> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const check = await property(x, x.root, '_NET_SUPPORTING_WM_CHECK');
    const window = check?.format === 32 && check.value.length >= 4 ? check.value.readUInt32LE(0) : undefined;
    const name = window === undefined ? undefined : ((await property(x, window, '_NET_WM_NAME')) ?? (await property(x, window, 'WM_NAME')));
    const extension = await x.request(QUERY_EXTENSION, 0, named('XTEST'), 'QueryExtension(XTEST)');
    return { windowManager: window === undefined ? undefined : (name?.value.toString('utf8') ?? ''), xtest: extension.readUInt8(8) === 1 };
  } finally {
    x.close();
  }
}

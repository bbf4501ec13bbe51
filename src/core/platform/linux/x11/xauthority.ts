import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface XAuth {
  name: string;
  data: Buffer;
}

const FAMILY_LOCAL = 256;
const FAMILY_WILD = 65535;
const COOKIE = 'MIT-MAGIC-COOKIE-1';

interface Entry {
  family: number;
  address: string;
  number: string;
  name: string;
  data: Buffer;
}

/** The Xauthority format: big-endian family, then address, display number, name and data, each length-prefixed. */
export function parseXauthority(file: Buffer): Entry[] {
  const entries: Entry[] = [];
  let offset = 0;
  const counted = (): Buffer => {
    const length = file.readUInt16BE(offset);
    const value = file.subarray(offset + 2, offset + 2 + length);
    if (value.length !== length) throw new RangeError('truncated Xauthority entry');
    offset += 2 + length;
    return value;
  };
  try {
    while (offset + 2 <= file.length) {
      const family = file.readUInt16BE(offset);
      offset += 2;
      const [address, number, name, data] = [counted(), counted(), counted(), counted()];
      entries.push({ family, address: address.toString('latin1'), number: number.toString('latin1'), name: name.toString('latin1'), data: Buffer.from(data) });
    }
  } catch {
    // A damaged tail leaves the entries read so far; the server says so if none of them fits.
  }
  return entries;
}

/**
 * The cookie for display `number`, as Xlib would pick it: an entry for this host (or any
 * host) first, then any entry for the display number. No file, no cookie: servers started
 * without -auth (Xvfb in tests) accept connections without one.
 */
export function findCookie(env: Record<string, string | undefined>, number: string): XAuth | undefined {
  const file = env['XAUTHORITY'] ?? (env['HOME'] === undefined ? undefined : path.join(env['HOME'], '.Xauthority'));
  if (file === undefined) return undefined;
  let entries: Entry[];
  try {
    entries = parseXauthority(readFileSync(file));
  } catch {
    return undefined;
  }
  const cookies = entries.filter((entry) => entry.name === COOKIE && (entry.number === number || entry.number === ''));
  const host = os.hostname();
  const best = cookies.find((entry) => entry.family === FAMILY_WILD || (entry.family === FAMILY_LOCAL && entry.address === host)) ?? cookies[0];
  return best === undefined ? undefined : { name: best.name, data: best.data };
}

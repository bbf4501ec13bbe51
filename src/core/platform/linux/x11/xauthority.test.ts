import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCookie, parseXauthority } from './xauthority';

function entry(family: number, address: string, number: string, name: string, data: Buffer): Buffer {
  const counted = (value: Buffer): Buffer => Buffer.concat([Buffer.from([value.length >> 8, value.length & 0xff]), value]);
  return Buffer.concat([
    Buffer.from([family >> 8, family & 0xff]),
    counted(Buffer.from(address)),
    counted(Buffer.from(number)),
    counted(Buffer.from(name)),
    counted(data),
  ]);
}

describe('Xauthority', () => {
  it('reads entries and picks this host’s cookie for the display number', () => {
    const other = Buffer.alloc(16, 1);
    const mine = Buffer.alloc(16, 2);
    const file = Buffer.concat([
      entry(256, 'elsewhere', '0', 'MIT-MAGIC-COOKIE-1', other),
      entry(256, os.hostname(), '1', 'MIT-MAGIC-COOKIE-1', other),
      entry(256, os.hostname(), '0', 'MIT-MAGIC-COOKIE-1', mine),
    ]);
    expect(parseXauthority(file).map((each) => [each.address, each.number])).toEqual([
      ['elsewhere', '0'],
      [os.hostname(), '1'],
      [os.hostname(), '0'],
    ]);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'xauth-'));
    writeFileSync(path.join(folder, 'auth'), file);
    expect(findCookie({ XAUTHORITY: path.join(folder, 'auth') }, '0')).toEqual({ name: 'MIT-MAGIC-COOKIE-1', data: mine });
    expect(findCookie({ XAUTHORITY: path.join(folder, 'auth') }, '7')).toBeUndefined();
  });

  it('no file, or a damaged one, means no cookie rather than an error', () => {
    expect(findCookie({ XAUTHORITY: '/nonexistent/auth' }, '0')).toBeUndefined();
    expect(findCookie({}, '0')).toBeUndefined();
    const whole = entry(65535, '', '', 'MIT-MAGIC-COOKIE-1', Buffer.alloc(16, 3));
    expect(parseXauthority(Buffer.concat([whole, whole.subarray(0, 9)]))).toHaveLength(1);
  });
});

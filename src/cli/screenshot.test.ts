/** Where `deskpilot screenshot` writes: the folder the user ran it in, also under `npm run` (INIT_CWD). */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../core/platform/fake/fake-platform';
import { main } from './main';
import { userPath } from './user-path';

let platform: FakePlatform;
let out: string[];

beforeEach(() => {
  platform = new FakePlatform();
  out = [];
  // A 2×2 black window: all the command needs to write a PNG.
  const image = { x: 0, y: 0, width: 2, height: 2, data: Buffer.alloc(16) };
  Object.assign(platform, { vision: { capture: () => Promise.resolve(image), read: () => Promise.resolve({ image, lines: [] }) } });
});

describe('deskpilot screenshot --out', () => {
  it('writes a relative --out in the folder npm was run from (INIT_CWD), not the package folder', async () => {
    const user = mkdtempSync(path.join(tmpdir(), 'deskpilot-shot-'));
    const env = { INIT_CWD: user };
    const code = await main(['screenshot', '--pid', String(FIXTURE_PID), '--out', 'shot.png'], {
      stdout: (text) => out.push(text),
      stderr: () => undefined,
      env,
      platform,
    });
    expect(code).toBe(0);
    const file = path.join(user, 'shot.png');
    expect(out.at(-1)).toContain(`saved ${file}`);
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    expect(existsSync(path.join(process.cwd(), 'shot.png'))).toBe(false);
  });

  it('resolves against the process folder without INIT_CWD, and leaves absolute paths alone', () => {
    expect(userPath({}, 'a.png')).toBe(path.join(process.cwd(), 'a.png'));
    expect(userPath({ INIT_CWD: '/home/ada' }, '/tmp/b.png')).toBe('/tmp/b.png');
    expect(userPath({ INIT_CWD: '/home/ada' }, 'c.png')).toBe('/home/ada/c.png');
  });
});

import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../platform/fake/fake-platform';
import type { Platform } from '../platform/types';
import { findNodes } from '../ui/query';
import { ActionEngine } from './engine';
import { guardInput } from './input-guard';

const TARGET = 200;
const USER_WINDOW = 1;
const TARGET_WINDOW = 2;
const OTHER_WINDOW = 3;

/**
 * A platform whose active window follows `timeline` (one entry a look, the last one kept), whose
 * windows say which pid they belong to, and whose AT-SPI front app is `front`.
 */
function platform(timeline: number[], front: number | undefined) {
  const restored: number[] = [];
  let look = 0;
  const apps = {
    activeWindow: () => Promise.resolve(timeline[Math.min(look++, timeline.length - 1)]),
    restoreWindow: (window: number) => {
      restored.push(window);
      return Promise.resolve();
    },
    windowPid: (window: number) => Promise.resolve(window === TARGET_WINDOW ? TARGET : 99),
    frontmost: () => Promise.resolve(front === undefined ? undefined : { pid: front, name: 'app', windows: [] }),
  };
  return { platform: { apps, input: {} } as unknown as Platform, restored };
}

describe('guardInput', () => {
  it('gives the focus back when a raise it gave up on is carried out late, and notes the devices were taken', async () => {
    const clock = new FakeClock();
    // Before, then twice unchanged after the failure, then the window manager activates the target.
    const { platform: fake, restored } = platform([USER_WINDOW, USER_WINDOW, USER_WINDOW, TARGET_WINDOW], undefined);
    const devices = { taken: false };
    const failing = guardInput(fake, TARGET, () => Promise.reject(new Error('not frontmost')), { sleep: (ms) => clock.sleep(ms), devices });
    await expect(failing).rejects.toThrow('not frontmost');
    expect(restored).toEqual([USER_WINDOW]);
    expect(devices.taken).toBe(true);
    expect(clock.sleeps.length).toBeLessThanOrEqual(3);
  });

  it('trusts the window system over a lagging AT-SPI front app', async () => {
    const { platform: fake, restored } = platform([USER_WINDOW, TARGET_WINDOW], 99);
    await guardInput(fake, TARGET, () => Promise.resolve());
    expect(restored).toEqual([USER_WINDOW]);
  });

  it('leaves a window the user switched to alone, and does not wait after a step that succeeded', async () => {
    const clock = new FakeClock();
    const { platform: fake, restored } = platform([USER_WINDOW, OTHER_WINDOW], undefined);
    const devices = { taken: false };
    await guardInput(fake, TARGET, () => Promise.resolve(), { sleep: (ms) => clock.sleep(ms), devices });
    expect(restored).toEqual([]);
    expect(devices.taken).toBe(false);
    expect(clock.sleeps).toEqual([]);
  });

  it('stops looking for a late raise after a bounded number of looks', async () => {
    const clock = new FakeClock();
    const { platform: fake, restored } = platform([USER_WINDOW], undefined);
    await expect(guardInput(fake, TARGET, () => Promise.reject(new Error('refused')), { sleep: (ms) => clock.sleep(ms) })).rejects.toThrow('refused');
    expect(restored).toEqual([]);
    expect(clock.sleeps).toEqual([100, 100, 100]);
  });

  it('makes a step that failed after taking the focus say so, and gives the focus back', async () => {
    const fake = new FakePlatform();
    fake.frontmostPid = NOTES_PID;
    // The window manager raises the app, but the engine never sees it in front: the raise "fails".
    Object.assign(fake.apps, {
      activate: (pid: number) => {
        fake.frontmostPid = pid;
        return Promise.resolve(false);
      },
    });
    Object.assign(fake.accessibility, { insertText: () => Promise.resolve(false) });
    const engine = new ActionEngine({ platform: fake, clock: new FakeClock() });
    const id = findNodes((await engine.observe(FIXTURE_PID)).root, { name: 'Name', role: 'textfield' })[0]?.node.id as string;
    const result = await engine.run(FIXTURE_PID, { action: 'type', id, text: 'hi' });
    expect(result).toMatchObject({ success: false, method: 'input', interrupted: true });
    expect(fake.restores).toEqual([NOTES_PID]);
    expect(fake.frontmostPid).toBe(NOTES_PID);
  });
});

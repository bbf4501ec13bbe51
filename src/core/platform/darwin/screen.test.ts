import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePng } from '../../image/png';
import { withScreenText } from '../../screen-text/screen-text';
import type { WindowImage } from '../types';
import { requestScreenRecordingPermission } from './index';
import { CAPTURE_TIMEOUT_MS, SCREENCAPTURE, type ExecFile } from './screen';
import { asNative } from './testing/fake-native';
import { sampleApp, type FakeApp, type FakeWindowInfo } from './testing/fake-world';
import { harness, type Harness } from './testing/setup';

interface Run {
  file: string;
  args: readonly string[];
  timeout: number;
}

/**
 * A stand-in for /usr/sbin/screencapture: records the command line and writes a white PNG of
 * the window's size at `scale` pixels a point into the file it was given, as the tool does.
 */
function screencapture(size: { width: number; height: number }, scale: number, fail?: (run: Run) => Error | undefined) {
  const runs: Run[] = [];
  const exec: ExecFile = async (file, args, options) => {
    const run = { file, args: [...args], timeout: options.timeout };
    runs.push(run);
    const error = fail?.(run);
    if (error !== undefined) throw error;
    const [width, height] = [size.width * scale, size.height * scale];
    await writeFile(args.at(-1) as string, encodePng({ width, height, data: Buffer.alloc(width * height * 4, 255) }));
    return { stdout: '', stderr: '' };
  };
  return { runs, exec };
}

/** Notes with its document window behind another app's, a status item and a minimized window of its own. */
function windows(pid = 501): FakeWindowInfo[] {
  return [
    { pid: 900, number: 90001, bounds: { x: 0, y: 0, width: 1440, height: 900 } },
    { pid, number: 50199, layer: 25, bounds: { x: 1200, y: 0, width: 30, height: 22 } },
    { pid, number: 50198, bounds: { x: 0, y: 0, width: 1, height: 1 } },
    { pid, number: 50197, bounds: { x: 10, y: 10, width: 500, height: 400 }, alpha: 0 },
    { pid, number: 50103, bounds: { x: 40, y: 40, width: 640, height: 480 }, offScreen: true },
    { pid, number: 50102, bounds: { x: 100, y: 50, width: 800, height: 600 } },
    { pid, number: 50101, bounds: { x: 300, y: 300, width: 400, height: 300 } },
  ];
}

const other: FakeApp = { pid: 900, name: 'Safari', windows: [] };

describe('darwin window capture', () => {
  it('checks Screen Recording first, then captures the frontmost document window with screencapture -x -o -l, at Retina scale', async () => {
    const tool = screencapture({ width: 800, height: 600 }, 2);
    const test = await harness([sampleApp(), other], { windowList: windows() }, { execFile: tool.exec });
    const image = (await test.platform.screen?.captureWindow(501)) as WindowImage;

    expect(image).toMatchObject({ x: 100, y: 50, width: 1600, height: 1200, scale: 2 });
    expect(image.data.length).toBe(1600 * 1200 * 4);
    const [run] = tool.runs;
    expect(tool.runs).toHaveLength(1);
    // No sound, no shadow, only window 50102 (the frontmost of pid 501 that is on screen, at layer 0, visible and not a 1×1 helper).
    expect(run?.file).toBe(SCREENCAPTURE);
    expect(run?.args.slice(0, -1)).toEqual(['-x', '-o', '-l', '50102', '-t', 'png']);
    expect(run?.timeout).toBe(CAPTURE_TIMEOUT_MS);
    // The image went to a private temporary folder, removed afterwards.
    const file = run?.args.at(-1) as string;
    expect(path.basename(path.dirname(file))).toMatch(/^deskpilot-capture-/);
    expect(existsSync(path.dirname(file))).toBe(false);

    const names = test.fake.calls.map((call) => call.name);
    const preflight = names.indexOf('CGPreflightScreenCaptureAccess');
    expect(preflight).toBeGreaterThanOrEqual(0);
    expect(preflight).toBeLessThan(names.lastIndexOf('CGWindowListCopyWindowInfo'));
    // kCGWindowListOptionOnScreenOnly | kCGWindowListExcludeDesktopElements, relative to no window.
    expect(test.fake.callsOf('CGWindowListCopyWindowInfo').at(-1)?.args).toEqual([(1 << 0) | (1 << 4), 0]);
    // Capture never prompts.
    expect(names).not.toContain('CGRequestScreenCaptureAccess');
    // The list and every dictionary in it were released (the harness checks the heap on finish).
    await test.finish();
  });

  it('a window on a standard display comes back at one pixel a point', async () => {
    const tool = screencapture({ width: 800, height: 600 }, 1);
    const test = await harness([sampleApp(), other], { windowList: windows() }, { execFile: tool.exec });
    expect(await test.platform.screen?.captureWindow(501)).toMatchObject({ x: 100, y: 50, width: 800, height: 600, scale: 1 });
    await test.finish();
  });

  it('without Screen Recording it is PERMISSION_DENIED, saying where to grant it and to restart, before anything is read or run', async () => {
    const tool = screencapture({ width: 800, height: 600 }, 2);
    const test = await harness([sampleApp()], { screenRecording: false }, { execFile: tool.exec });
    const error = await test.platform.screen?.captureWindow(501).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'PERMISSION_DENIED', data: { permission: 'screen-recording' } });
    expect((error as Error).message).toMatch(/Privacy & Security → Screen & System Audio Recording/);
    expect((error as Error).message).toMatch(/restart Deskpilot/);
    expect(test.fake.callsOf('CGWindowListCopyWindowInfo')).toHaveLength(0);
    expect(test.fake.callsOf('CGRequestScreenCaptureAccess')).toHaveLength(0);
    expect(tool.runs).toHaveLength(0);
    await test.finish();
  });

  it('an app with no window on screen is UI_NOT_AVAILABLE, and a quit one PROCESS_EXITED, without running screencapture', async () => {
    const tool = screencapture({ width: 800, height: 600 }, 2);
    const hidden = windows().map((window) => (window.pid === 501 && window.layer === undefined ? { ...window, offScreen: true } : window));
    const test = await harness([sampleApp(), other, { pid: 777, name: 'Gone', windows: [], dead: true }], { windowList: hidden }, { execFile: tool.exec });
    await expect(test.platform.screen?.captureWindow(501)).rejects.toMatchObject({
      code: 'UI_NOT_AVAILABLE',
      message: expect.stringMatching(/no window on screen.*minimized, hidden or on another Space/),
    });
    await expect(test.platform.screen?.captureWindow(777)).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    expect(tool.runs).toHaveLength(0);
    await test.finish();
  });

  it('maps what screencapture does wrong to typed errors with the fix, and always removes its folder', async () => {
    const failure = (props: Record<string, unknown>) => Object.assign(new Error('Command failed'), props);
    const cases: { fail: Error; world?: 'revoke'; expected: Record<string, unknown> }[] = [
      { fail: failure({ code: 'ENOENT' }), expected: { code: 'UI_NOT_AVAILABLE', message: expect.stringContaining(SCREENCAPTURE) } },
      {
        fail: failure({ killed: true, signal: 'SIGTERM' }),
        expected: { code: 'UI_NOT_AVAILABLE', isRetryable: true, message: expect.stringMatching(/within 10 s/) },
      },
      {
        fail: failure({ code: 1, stderr: 'could not create image from window\n' }),
        expected: { code: 'UI_NOT_AVAILABLE', isRetryable: true, message: expect.stringMatching(/closed or left the screen/) },
      },
      // The grant was withdrawn between the check and the capture.
      { fail: failure({ code: 1, stderr: 'could not create image from window\n' }), world: 'revoke', expected: { code: 'PERMISSION_DENIED' } },
      {
        fail: failure({ code: 2, stderr: 'screencapture: illegal option' }),
        expected: { code: 'UI_NOT_AVAILABLE', message: expect.stringMatching(/exit 2.*illegal option/) },
      },
    ];
    for (const { fail, world, expected } of cases) {
      const held: { test?: Harness } = {};
      const tool = screencapture({ width: 800, height: 600 }, 2, () => {
        if (world === 'revoke' && held.test !== undefined) held.test.fake.world.screenRecording = false;
        return fail;
      });
      const test = await harness([sampleApp(), other], { windowList: windows() }, { execFile: tool.exec });
      held.test = test;
      await expect(test.platform.screen?.captureWindow(501)).rejects.toMatchObject(expected);
      expect(existsSync(path.dirname(tool.runs[0]?.args.at(-1) as string))).toBe(false);
      await test.finish();
    }
  });

  it('refuses an image that is missing, unreadable or not the window at one scale (resized meanwhile)', async () => {
    const silent: ExecFile = () => Promise.resolve({ stdout: '', stderr: '' });
    const garbage: ExecFile = async (_file, args) => {
      await writeFile(args.at(-1) as string, 'not a png');
      return { stdout: '', stderr: '' };
    };
    // 1600 pixels wide says two a point, but 900 high is not 600 points at two.
    const resized = screencapture({ width: 800, height: 450 }, 2).exec;
    for (const [exec, message] of [
      [silent, /without writing an image/],
      [garbage, /cannot read: not a PNG/],
      [resized, /changed size while it was captured \(1600×900 pixels for 800×600 points\)/],
    ] as const) {
      const test = await harness([sampleApp(), other], { windowList: windows() }, { execFile: exec });
      await expect(test.platform.screen?.captureWindow(501)).rejects.toMatchObject({ code: 'UI_NOT_AVAILABLE', message: expect.stringMatching(message) });
      await test.finish();
    }
  });

  it('on a Retina capture, every pixel of a secure field is black before the image leaves, from its bounds in points', async () => {
    const app: FakeApp = {
      pid: 501,
      name: 'Login',
      windows: [
        {
          role: 'AXWindow',
          title: 'Sign in',
          position: { x: 100, y: 50 },
          size: { width: 400, height: 300 },
          children: [
            // Off the whole-point grid, as a scaled layout can put it: its edge pixels must go too.
            { role: 'AXTextField', subrole: 'AXSecureTextField', title: 'Password', position: { x: 130.5, y: 120.25 }, size: { width: 200, height: 24.5 } },
          ],
        },
      ],
    };
    const tool = screencapture({ width: 400, height: 300 }, 2);
    const test = await harness([app], {}, { execFile: tool.exec });
    const vision = withScreenText(test.platform, { reader: { read: () => Promise.resolve([]) } });
    const image = (await vision.vision?.capture(501)) as WindowImage;
    expect(image).toMatchObject({ width: 800, height: 600, scale: 2 });
    const black = (x: number, y: number) => {
      const at = (y * image.width + x) * 4;
      return image.data[at] === 0 && image.data[at + 1] === 0 && image.data[at + 2] === 0 && image.data[at + 3] === 255;
    };
    // The field spans points 130.5–330.5 × 120.25–144.75 on the screen: pixels 61–460 × 140–189 of the image, rounded outward.
    for (let y = 140; y <= 189; y += 1) for (let x = 61; x <= 460; x += 1) expect(black(x, y)).toBe(true);
    expect([black(60, 150), black(461, 150), black(100, 139), black(100, 190)]).toEqual([false, false, false, false]);
    await vision.close();
    expect(test.fake.leaks()).toEqual([]);
  });

  it('asks for Screen Recording only when told to (CGRequestScreenCaptureAccess)', async () => {
    const test = await harness([sampleApp()], { screenRecording: false });
    expect(await requestScreenRecordingPermission(asNative(test.fake))).toBe(false);
    expect(test.fake.callsOf('CGRequestScreenCaptureAccess')).toHaveLength(1);
    await test.finish();
  });
});

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ProcessExitedError, UnsupportedOperationError } from '../../../shared/errors';
import { decodePng } from '../../image/png';
import type { ScreenCapture, WindowImage } from '../types';
import type { CfRuntime } from './cf';
import { assertScreenRecording, checkScreenRecording, screenRecordingDenied } from './screen-recording';
import { frontmostWindow, type MacWindow } from './window-list';

/** The capture tool every macOS ships. */
export const SCREENCAPTURE = '/usr/sbin/screencapture';
/** A window capture takes well under a second; this only stops a stuck tool. */
export const CAPTURE_TIMEOUT_MS = 10_000;

export interface ExecResult {
  stdout: string;
  stderr: string;
}

/**
 * Runs a program without a shell, as node:child_process.execFile does: it rejects when the
 * program cannot start (error.code 'ENOENT'), exits non-zero (error.code the exit status) or is
 * killed at the timeout (error.killed), with what it wrote to stderr on the error.
 */
export type ExecFile = (file: string, args: readonly string[], options: { timeout: number }) => Promise<ExecResult>;

const run = promisify(execFile);

export const execFileDefault: ExecFile = async (file, args, options) => {
  const { stdout, stderr } = await run(file, [...args], { timeout: options.timeout, encoding: 'utf8', maxBuffer: 1024 * 1024 });
  return { stdout, stderr };
};

interface ExecFailure {
  code?: unknown;
  killed?: boolean;
  signal?: unknown;
  stderr?: unknown;
}

export interface MacScreenOptions {
  exec?: ExecFile;
  timeoutMs?: number;
  isAlive?: (pid: number) => boolean;
}

/**
 * Window capture on macOS with the tool the OS ships: `screencapture -l <window number>`.
 *
 * The window is the app's frontmost one on screen, from the WindowServer's list
 * (window-list.ts). `-l` renders that one window from its own backing store, not a region of
 * the screen, so whatever overlaps it is not in the image: Deskpilot's own window never shows,
 * even on top of the app (hidePids needs no painting here, unlike X11). `-x` keeps it silent
 * and `-o` leaves out the window's shadow, so the image is exactly the window's frame.
 * The deprecated CGWindowListCreateImage family is not used.
 *
 * Screen Recording is checked first (CGPreflightScreenCaptureAccess): without it, macOS may
 * return the desktop picture instead of failing. The image is written to a private temporary
 * folder and removed whatever happens. It comes at the display's backing scale (two pixels a
 * point on Retina), measured against the window's bounds and returned as `scale`.
 */
export class MacScreen implements ScreenCapture {
  private readonly exec: ExecFile;
  private readonly timeoutMs: number;

  constructor(
    private readonly cf: CfRuntime,
    private readonly options: MacScreenOptions = {},
  ) {
    this.exec = options.exec ?? execFileDefault;
    this.timeoutMs = options.timeoutMs ?? CAPTURE_TIMEOUT_MS;
  }

  async captureWindow(pid: number): Promise<WindowImage> {
    assertScreenRecording(this.cf.native);
    const window = frontmostWindow(this.cf, pid);
    if (window === undefined) {
      if (this.options.isAlive?.(pid) === false) throw new ProcessExitedError(pid);
      throw new UnsupportedOperationError(
        `pid ${pid} has no window on screen to capture: bring one forward (it may be minimized, hidden or on another Space)`,
        { data: { pid } },
      );
    }
    const folder = await mkdtemp(path.join(tmpdir(), 'deskpilot-capture-'));
    try {
      const file = path.join(folder, 'window.png');
      await this.screencapture(window, file);
      return this.toImage(window, await this.readImage(file));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  private async screencapture(window: MacWindow, file: string): Promise<void> {
    const args = ['-x', '-o', '-l', String(window.number), '-t', 'png', file];
    try {
      await this.exec(SCREENCAPTURE, args, { timeout: this.timeoutMs });
    } catch (error) {
      throw this.failure(error as ExecFailure, window);
    }
  }

  private failure(error: ExecFailure, window: MacWindow): Error {
    const stderr = typeof error.stderr === 'string' ? error.stderr.trim() : '';
    const details = { cause: error, data: { pid: window.pid, window: window.number, exit: error.code, stderr } };
    if (error.code === 'ENOENT') {
      return new UnsupportedOperationError(`${SCREENCAPTURE} was not found: window capture uses the screencapture tool that macOS ships`, details);
    }
    if (error.killed === true) {
      return new UnsupportedOperationError(`screencapture did not finish within ${this.timeoutMs / 1000} s; try again`, { ...details, isRetryable: true });
    }
    // The grant can be withdrawn after the check; screencapture then says it could not create the image.
    if (!checkScreenRecording(this.cf.native)) return screenRecordingDenied(error);
    if (this.options.isAlive?.(window.pid) === false) return new ProcessExitedError(window.pid, details);
    if (/could not create image/i.test(stderr)) {
      return new UnsupportedOperationError(`pid ${window.pid}'s window closed or left the screen while it was captured; try again`, {
        ...details,
        isRetryable: true,
      });
    }
    return new UnsupportedOperationError(`screencapture failed (exit ${String(error.code)})${stderr === '' ? '' : `: ${stderr}`}`, details);
  }

  private async readImage(file: string): Promise<{ width: number; height: number; data: Buffer }> {
    const png = await readFile(file).catch(() => undefined);
    if (png === undefined || png.length === 0) {
      throw new UnsupportedOperationError('screencapture exited without writing an image; try again', { isRetryable: true });
    }
    try {
      return decodePng(png);
    } catch (error) {
      throw new UnsupportedOperationError(`screencapture wrote an image Deskpilot cannot read: ${(error as Error).message}`, { cause: error });
    }
  }

  /**
   * The image placed on the screen in points, with its pixels per point. A size that does not
   * match the window's bounds at one scale (a resize during the capture) is refused: secret
   * fields are painted out from the tree's bounds, which would land on the wrong pixels.
   */
  private toImage(window: MacWindow, image: { width: number; height: number; data: Buffer }): WindowImage {
    const { bounds } = window;
    const scale = image.width / bounds.width;
    if (!(scale > 0) || Math.abs(image.height - bounds.height * scale) > Math.max(2, scale)) {
      throw new UnsupportedOperationError(
        `pid ${window.pid}'s window changed size while it was captured (${image.width}×${image.height} pixels for ${bounds.width}×${bounds.height} points); try again`,
        { isRetryable: true, data: { pid: window.pid } },
      );
    }
    return { x: bounds.x, y: bounds.y, width: image.width, height: image.height, data: image.data, scale };
  }
}

import { existsSync } from 'node:fs';
import net from 'node:net';
import { UiNotAvailableError } from '../../../shared/errors';
import { setupAdvice } from './session-discovery';

/** Where a user without a desktop session can get one. */
export const PRIVATE_SESSION = 'in a checkout, npm run session -- bash opens a private one';

/** Where an X display listens: the unix socket for ":N", TCP port 6000+N for "host:N". */
export function displaySocket(display: string): { path: string } | { host: string; port: number } | undefined {
  const match = /^([^:]*):(\d+)(?:\.\d+)?$/.exec(display);
  if (match === null) return undefined;
  const [, host, number] = match;
  if (host === '' || host === 'unix') return { path: `/tmp/.X11-unix/X${number}` };
  return { host: host as string, port: 6000 + Number(number) };
}

/**
 * What is wrong with the X display, in words (`DISPLAY is not set`, `no X server listens on :5
 * (…)`), or undefined when an X server answers on it.
 */
export async function displayProblem(env: Record<string, string | undefined>, timeoutMs = 1000): Promise<string | undefined> {
  const display = env['DISPLAY'];
  if (display === undefined || display === '') return 'DISPLAY is not set';
  const target = displaySocket(display);
  if (target === undefined) return `DISPLAY=${display} is not a display name`;
  if ('path' in target && !existsSync(target.path)) return `no X server listens on ${display} (${target.path} is missing)`;
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = net.connect(target as net.NetConnectOpts);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
  return reachable ? undefined : `the X server on ${display} does not answer`;
}

/**
 * nut-js segfaults the whole process when it cannot open the display, and no JS can catch
 * that. So before it is ever loaded, check that an X server really answers on DISPLAY.
 */
export async function assertDisplay(env: Record<string, string | undefined>, timeoutMs = 1000): Promise<void> {
  const problem = await displayProblem(env, timeoutMs);
  if (problem !== undefined) throw noDisplayError(env, problem, 'synthetic input (mouse and keys) needs one');
}

/** No X display, or a Wayland session without XWayland; `needs` says what wanted one ("synthetic input needs one"). */
export function noDisplayError(env: Record<string, string | undefined>, problem: string, needs: string): UiNotAvailableError {
  const wayland = env['WAYLAND_DISPLAY'];
  if (wayland !== undefined && wayland !== '') {
    return new UiNotAvailableError(
      'wayland',
      `a Wayland session without XWayland: WAYLAND_DISPLAY=${wayland} but ${problem}, and ${needs}`,
      'turn XWayland on or log in to an X11 session, so DISPLAY names a running X server',
    );
  }
  // DISPLAY unset after discovery (session-discovery.ts) found none: the client's config has to name it.
  const unset = env['DISPLAY'] === undefined || env['DISPLAY'] === '';
  return new UiNotAvailableError(
    'no-display',
    `no X display: ${problem}, and ${needs}`,
    unset ? `${setupAdvice(env)} (${PRIVATE_SESSION})` : `start your desktop session or Xvfb and set DISPLAY to it (${PRIVATE_SESSION})`,
    unset ? { data: { setup: true } } : {},
  );
}

import { existsSync } from 'node:fs';
import net from 'node:net';
import { UnsupportedOperationError } from '../../../shared/errors';

/** Where an X display listens: the unix socket for ":N", TCP port 6000+N for "host:N". */
export function displaySocket(display: string): { path: string } | { host: string; port: number } | undefined {
  const match = /^([^:]*):(\d+)(?:\.\d+)?$/.exec(display);
  if (match === null) return undefined;
  const [, host, number] = match;
  if (host === '' || host === 'unix') return { path: `/tmp/.X11-unix/X${number}` };
  return { host: host as string, port: 6000 + Number(number) };
}

/**
 * nut-js segfaults the whole process when it cannot open the display, and no JS can catch
 * that. So before it is ever loaded, check that an X server really answers on DISPLAY.
 */
export async function assertDisplay(env: Record<string, string | undefined>, timeoutMs = 1000): Promise<void> {
  const display = env['DISPLAY'];
  const fail = (why: string): never => {
    throw new UnsupportedOperationError(
      `Synthetic input needs an X11 display, and ${why}. Run inside a desktop session (or Xvfb); Wayland-only sessions are not supported yet.`,
    );
  };
  if (display === undefined || display === '') fail('DISPLAY is not set');
  const target = displaySocket(display as string);
  if (target === undefined) fail(`DISPLAY=${display} is not a display name`);
  if (target !== undefined && 'path' in target && !existsSync(target.path)) fail(`no X server listens on ${display} (${target.path} is missing)`);
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
  if (!reachable) fail(`the X server on ${display} does not answer`);
}

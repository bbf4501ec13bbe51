/**
 * What a broken Linux desktop looks like to the user: one UI_NOT_AVAILABLE error per missing
 * part, each saying what is missing and how to fix it, with `data.reason` for programs. The
 * D-Bus error name goes in brackets at most: the words must make sense without it.
 */
import { DbusCallError, DbusDisconnectedError, DbusTimeoutError } from '../../../../native/linux/dbus';
import { UiNotAvailableError } from '../../../shared/errors';
import { displayProblem, noDisplayError } from './display';
import { busPlaces, setupAdvice } from './session-discovery';

export { noDisplayError };

/** A D-Bus failure in a few words: the error's own name, a timeout, or why the socket closed. */
export function briefly(error: unknown): string {
  if (error instanceof DbusCallError) return error.errorName.split('.').pop() ?? error.errorName;
  if (error instanceof DbusTimeoutError) return `no answer within ${error.timeoutMs} ms`;
  if (error instanceof DbusDisconnectedError) return error.message.replace(/^.*? is closed: /, '');
  return error instanceof Error ? error.message : String(error);
}

export function noSessionBusError(address: string | undefined, error?: unknown, env: Record<string, string | undefined> = {}): UiNotAvailableError {
  if (address === undefined || address === '') {
    // Discovery (session-discovery.ts) already looked where desktop tools look: what is left is the client's config.
    return new UiNotAvailableError(
      'no-a11y-bus',
      `no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is unset and no bus socket was found (looked at ${busPlaces(env)}), so the accessibility bus cannot be found`,
      `${setupAdvice(env)} (or, in a checkout without a desktop, npm run session -- bash opens a private one)`,
      { data: { setup: true } },
    );
  }
  return new UiNotAvailableError(
    'no-a11y-bus',
    `the D-Bus session bus does not answer (DBUS_SESSION_BUS_ADDRESS=${address}: ${briefly(error)})`,
    'run inside a running desktop session, or set DBUS_SESSION_BUS_ADDRESS to its bus',
    { cause: error },
  );
}

export function noAccessibilityBusError(error: unknown): UiNotAvailableError {
  return new UiNotAvailableError(
    'no-a11y-bus',
    `the session bus has no AT-SPI accessibility bus (org.a11y.Bus: ${briefly(error)})`,
    'install at-spi2-core (it provides at-spi-bus-launcher) and log in again',
    { cause: error },
  );
}

/** The accessibility bus itself would not connect, or dropped the connection. */
export function accessibilityBusLostError(address: string, error: unknown): UiNotAvailableError {
  return new UiNotAvailableError(
    'no-a11y-bus',
    `the AT-SPI accessibility bus at ${address} is gone (${briefly(error)})`,
    'log in again, or restart at-spi-bus-launcher; Deskpilot connects again on the next call',
    { cause: error },
  );
}

export function accessibilityOffError(why: string): UiNotAvailableError {
  return new UiNotAvailableError(
    'a11y-disabled',
    `accessibility is switched off (org.a11y.Status.IsEnabled is false${why === '' ? '' : ` and could not be set: ${why}`}), so apps do not expose their trees`,
    'turn it on with gsettings set org.gnome.desktop.interface toolkit-accessibility true, then restart the apps you want to use',
  );
}

/**
 * The registry did not answer. It cannot run without an X display (that is how it usually
 * dies: the X server failed to start), so the display is checked first and named as the
 * cause when it is missing; under Wayland the registry needs no X display.
 */
export async function registryError(env: Record<string, string | undefined>, error: unknown): Promise<UiNotAvailableError> {
  const wayland = env['WAYLAND_DISPLAY'] !== undefined && env['WAYLAND_DISPLAY'] !== '';
  const problem = wayland ? undefined : await displayProblem(env, 500);
  if (problem !== undefined) return noDisplayError(env, problem, 'the AT-SPI registry (at-spi2-registryd) cannot run without one');
  return new UiNotAvailableError(
    'registry-gone',
    `the AT-SPI registry (at-spi2-registryd) is not running or does not answer (${briefly(error)})`,
    'start it again (/usr/libexec/at-spi2-registryd &, after ending a frozen one) or log in again; Deskpilot connects again on the next call',
    { cause: error },
  );
}

const GONE = new Set([
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.Disconnected',
  'org.freedesktop.DBus.Error.Spawn.ChildExited',
  'org.freedesktop.DBus.Error.Spawn.Failed',
  'org.freedesktop.DBus.Error.TimedOut',
]);

/** Whether a failed registry call means the registry itself is missing, not a bad request. */
export function registryMissing(error: unknown): boolean {
  if (error instanceof DbusTimeoutError || error instanceof DbusDisconnectedError) return true;
  return error instanceof DbusCallError && (GONE.has(error.errorName) || error.errorName.startsWith('org.freedesktop.DBus.Error.Spawn'));
}

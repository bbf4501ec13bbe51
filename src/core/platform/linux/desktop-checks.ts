/**
 * `deskpilot doctor` on Linux: one check per part the desktop needs, each measured on its own
 * with a timeout, so a broken part shows as ✗ with its fix and never stops the others. The
 * checks read and never change: IsEnabled is read, not switched on.
 */
import { A11Y_BUS } from '../../../../native/linux/atspi';
import { DbusConnection } from '../../../../native/linux/dbus';
import { DeskpilotError, isDeskpilotError } from '../../../shared/errors';
import type { DoctorCheck } from '../../../shared/ipc';
import { AppDirectory } from './apps';
import { accessibilityBusLostError, accessibilityOffError, noAccessibilityBusError, noDisplayError, noSessionBusError } from './availability';
import { chromiumWithoutAccessibility } from './chromium-apps';
import { x11Facts } from './x11/server-facts';
import { AtspiClient } from './client';
import { displayProblem } from './display';
import { discoverSession } from './session-discovery';

const STEP_MS = 1500;

/** A failed check from a typed error: its `what` is the figure, its fix and reason the advice. */
function failed(id: DoctorCheck['id'], error: unknown): DoctorCheck {
  const data = isDeskpilotError(error) ? error.data : undefined;
  const what = typeof data?.['what'] === 'string' ? data['what'] : error instanceof Error ? error.message : String(error);
  const fix = typeof data?.['fix'] === 'string' ? data['fix'] : undefined;
  const reason = typeof data?.['reason'] === 'string' ? data['reason'] : undefined;
  return { id, status: 'fail', figure: what, ...(fix === undefined ? {} : { fix }), ...(reason === undefined ? {} : { fixKey: reason }) };
}

const skipped = (id: DoctorCheck['id'], figure: string): DoctorCheck => ({ id, status: 'skip', figure });

/** The session bus part: the accessibility bus's address, IsEnabled as it is, and a keyring on the bus. */
async function sessionChecks(env: Record<string, string | undefined>): Promise<{ checks: DoctorCheck[]; busOk: boolean }> {
  const address = env['DBUS_SESSION_BUS_ADDRESS'];
  if (address === undefined || address === '') {
    return {
      checks: [failed('a11y-bus', noSessionBusError(address)), skipped('a11y-enabled', 'no session bus'), skipped('keyring', 'no session bus')],
      busOk: false,
    };
  }
  let session: DbusConnection;
  try {
    session = await DbusConnection.connect(address, STEP_MS);
  } catch (error) {
    return {
      checks: [failed('a11y-bus', noSessionBusError(address, error)), skipped('a11y-enabled', 'no session bus'), skipped('keyring', 'no session bus')],
      busOk: false,
    };
  }
  try {
    const [bus, enabled, keyring] = await Promise.all([accessibilityBus(session), isEnabled(session), keyringCheck(session)]);
    return { checks: [bus, enabled, keyring], busOk: bus.status === 'ok' };
  } finally {
    session.close();
  }
}

async function accessibilityBus(session: DbusConnection): Promise<DoctorCheck> {
  let address: string;
  try {
    const [reply] = await session.call({ destination: A11Y_BUS.name, path: A11Y_BUS.path, interface: A11Y_BUS.interface, member: 'GetAddress' }, STEP_MS);
    address = String(reply);
  } catch (error) {
    return failed('a11y-bus', noAccessibilityBusError(error));
  }
  try {
    (await DbusConnection.connect(address, STEP_MS)).close();
  } catch (error) {
    return failed('a11y-bus', accessibilityBusLostError(address, error));
  }
  return { id: 'a11y-bus', status: 'ok', figure: address };
}

async function isEnabled(session: DbusConnection): Promise<DoctorCheck> {
  const value = await session.getProperty(A11Y_BUS.name, A11Y_BUS.path, A11Y_BUS.status, 'IsEnabled', STEP_MS).catch(() => undefined);
  if (value === true) return { id: 'a11y-enabled', status: 'ok', figure: 'org.a11y.Status.IsEnabled=true' };
  if (value === undefined) return skipped('a11y-enabled', 'org.a11y.Status.IsEnabled could not be read');
  return { ...failed('a11y-enabled', accessibilityOffError('')), figure: 'org.a11y.Status.IsEnabled=false' };
}

/** Electron's safeStorage keeps the API key in the Secret Service (GNOME Keyring, KeePassXC) or KWallet. */
const KEYRINGS = ['org.freedesktop.secrets', 'org.kde.kwalletd6', 'org.kde.kwalletd5'];

async function keyringCheck(session: DbusConnection): Promise<DoctorCheck> {
  const ask = async (member: string): Promise<string[]> => {
    const [names] = await session.call(
      { destination: 'org.freedesktop.DBus', path: '/org/freedesktop/DBus', interface: 'org.freedesktop.DBus', member },
      STEP_MS,
    );
    return names as string[];
  };
  try {
    const [running, activatable] = await Promise.all([ask('ListNames'), ask('ListActivatableNames')]);
    const found = KEYRINGS.find((name) => running.includes(name)) ?? KEYRINGS.find((name) => activatable.includes(name));
    if (found !== undefined) return { id: 'keyring', status: 'ok', figure: `${found}${running.includes(found) ? '' : ' (started on demand)'}` };
  } catch (error) {
    return failed('keyring', error);
  }
  return {
    id: 'keyring',
    status: 'fail',
    figure: 'no Secret Service or KWallet on the session bus',
    fix: 'install gnome-keyring (or KWallet) and unlock it at login: without one the app will not store an API key; the CLI reads DESKPILOT_API_KEY',
    fixKey: 'no-keyring',
  };
}

/** The registry, and what the apps on it show. */
async function registryChecks(env: Record<string, string | undefined>): Promise<DoctorCheck[]> {
  let client: AtspiClient;
  try {
    client = await AtspiClient.connect(env, { switchOn: false });
  } catch (error) {
    return [failed('registry', error), skipped('apps', 'the registry does not answer')];
  }
  try {
    const apps = await new AppDirectory(client).list();
    const trees = apps.filter((app) => app.windows.length > 0).length;
    const figure = `${apps.length} app${apps.length === 1 ? '' : 's'}, ${trees} with a tree`;
    const registry: DoctorCheck = { id: 'registry', status: 'ok', figure: 'org.a11y.atspi.Registry answers' };
    if (trees > 0) return [registry, { id: 'apps', status: 'ok', figure }];
    return [
      registry,
      {
        id: 'apps',
        status: 'fail',
        figure,
        fix: 'start the app you want to use inside this session; GTK apps must not run with NO_AT_BRIDGE=1, Qt apps need QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1',
        fixKey: 'no-apps',
      },
    ];
  } catch (error) {
    return [failed('registry', error), skipped('apps', 'the registry does not answer')];
  } finally {
    client.close();
  }
}

async function displayChecks(env: Record<string, string | undefined>): Promise<DoctorCheck[]> {
  const problem = await displayProblem(env, STEP_MS);
  if (problem !== undefined) {
    return [
      failed('display', noDisplayError(env, problem, 'synthetic input and window activation need one')),
      skipped('window-manager', 'no X display'),
      skipped('input', 'no X display'),
    ];
  }
  const display: DoctorCheck = { id: 'display', status: 'ok', figure: `DISPLAY=${env['DISPLAY'] ?? ''} answers` };
  try {
    const facts = await x11Facts(env, STEP_MS);
    return [
      display,
      facts.windowManager === undefined
        ? {
            id: 'window-manager',
            status: 'fail',
            figure: 'no EWMH window manager (_NET_SUPPORTING_WM_CHECK is not set)',
            fix: "start your desktop's window manager (or openbox): without one, Deskpilot raises and focuses windows itself, and other windows may take the keys",
            fixKey: 'no-wm',
          }
        : { id: 'window-manager', status: 'ok', figure: facts.windowManager === '' ? 'an EWMH window manager' : facts.windowManager },
      facts.xtest
        ? { id: 'input', status: 'ok', figure: 'XTEST extension present (nut-js input)' }
        : {
            id: 'input',
            status: 'fail',
            figure: 'the X server has no XTEST extension',
            fix: 'start the X server with XTEST (Xvfb and Xorg have it unless started with -extension XTEST); without it only accessibility actions work',
            fixKey: 'no-xtest',
          },
    ];
  } catch (error) {
    const why = new DeskpilotError('UI_NOT_AVAILABLE', `the X server on ${env['DISPLAY'] ?? ''} refused a connection: ${(error as Error).message}`);
    return [display, failed('window-manager', why), failed('input', why)];
  }
}

export async function linuxChecks(given: Record<string, string | undefined>, ownPids: readonly number[] = []): Promise<DoctorCheck[]> {
  // The desktop the tools would find (session-discovery.ts), not only what this environment names.
  const { env } = await discoverSession(given);
  const [display, session, chromium] = await Promise.all([displayChecks(env), sessionChecks(env), chromiumCheck(ownPids, env['DISPLAY'])]);
  const registry = session.busOk ? await registryChecks(env) : [skipped('registry', 'no accessibility bus'), skipped('apps', 'no accessibility bus')];
  const [bus, enabled, keyring] = session.checks as [DoctorCheck, DoctorCheck, DoctorCheck];
  const [screen, windowManager, input] = display as [DoctorCheck, DoctorCheck, DoctorCheck];
  return [screen, bus, enabled, ...registry, chromium, windowManager, input, keyring];
}

async function chromiumCheck(ownPids: readonly number[], display: string | undefined): Promise<DoctorCheck> {
  const { running, without } = await chromiumWithoutAccessibility(ownPids, '/proc', display);
  if (without.length === 0) {
    return { id: 'chromium', status: 'ok', figure: running === 0 ? 'no Chromium or Electron app running' : `${running} running, each with accessibility on` };
  }
  const apps = without
    .slice(0, 3)
    .map((app) => `${app.name} (pid ${app.pid})`)
    .join(', ');
  return {
    id: 'chromium',
    status: 'fail',
    figure: `${apps}${without.length > 3 ? ` and ${without.length - 3} more` : ''} without --force-renderer-accessibility`,
    fix: 'start them again with --force-renderer-accessibility (or ACCESSIBILITY_ENABLED=1 in their environment), so their web content has a tree',
    fixKey: 'chromium',
    fixValues: { apps },
  };
}

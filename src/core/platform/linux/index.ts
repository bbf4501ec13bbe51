import type { InputBackend, Platform } from '../types';
import { canTypeAll } from '../keymap';
import { createNutInput } from '../nut-input';
import { AtspiAccessibility } from './accessibility';
import { createReadChildren } from './budgeted-read';
import { createFocusPath } from './focus-path';
import { createActivate } from './activate';
import { createCloseWindow } from './close';
import { createRelaunch, startDetached } from './relaunch';
import type { AppInfo } from '../../../shared/ui-node';
import { AppDirectory, type AppEntry } from './apps';
import { isProcessAlive } from '../process';
import { AtspiClient } from './client';
import { assertDisplay } from './display';
import { createScreen } from './screen';
import { discoverSession, systemDeps, type Discovered, type DiscoveryDeps } from './session-discovery';
import { windowOwnerAt } from './x11/window-at';
import { activeWindow, restoreWindow, windowPid } from './x11/active-window';
import { linuxTraits } from './traits';
import { typeInWindow } from './x11/window-keys';

/**
 * Input is created on first use: reading trees needs only D-Bus, and a machine with
 * AT-SPI but no reachable X display still gets a clear UI_NOT_AVAILABLE for input alone.
 */
function lazyInput(env: Record<string, string | undefined>, titlesOf: (pid: number) => Promise<string[]>): InputBackend {
  let input: Promise<InputBackend> | undefined;
  const load = (): Promise<InputBackend> => {
    input ??= assertDisplay(env).then(() => createNutInput());
    input.catch(() => (input = undefined));
    return input;
  };
  return {
    click: async (point) => (await load()).click(point),
    moveMouse: async (point) => (await load()).moveMouse(point),
    mouseDown: async () => (await load()).mouseDown(),
    mouseUp: async () => (await load()).mouseUp(),
    typeText: async (text, signal) => (await load()).typeText(text, signal),
    pressKey: async (key, modifiers, pid) => (await load()).pressKey(key, modifiers, pid),
    scroll: async (point, direction, amount) => (await load()).scroll(point, direction, amount),
    pointer: async () => {
      const input = await load();
      if (input.pointer === undefined) throw new Error('this input backend cannot read the pointer');
      return input.pointer();
    },
    // The keymap is known without loading nut-js.
    canType: canTypeAll,
    // Its own X connection: no nut-js, and the user's keyboard and focus stay where they are.
    typeInWindow: async (pid, text, options) => typeInWindow(env, { pid, titles: await titlesOf(pid) }, text, options).catch(() => false),
  };
}

/** What callers see of an app: the bus name and toolkit stay inside the backend. */
function publicInfo({ bus: _bus, gtk4: _gtk4, bridge: _bridge, ...app }: AppEntry): AppInfo {
  return app;
}

/**
 * libX11 under nut-js reads DISPLAY and XAUTHORITY from this process's own environment, not
 * from the env passed around, so a display found by discovery is exported here too.
 */
function exportDisplay(found: readonly Discovered[]): void {
  for (const { name, value } of found) {
    if ((name === 'DISPLAY' || name === 'XAUTHORITY') && (process.env[name] ?? '') === '') process.env[name] = value;
  }
}

export async function createLinuxPlatform(given: Record<string, string | undefined> = process.env, discovery: DiscoveryDeps = systemDeps()): Promise<Platform> {
  // An MCP client's bare environment lacks DISPLAY and the session bus: find the user's session as desktop tools do.
  const session = await discoverSession(given, discovery);
  const env = session.env;
  exportDisplay(session.found);
  // Connects on the first call: a broken desktop is that call's UI_NOT_AVAILABLE, and a later call connects again.
  const client = AtspiClient.open(env);
  const apps = new AppDirectory(client, env);
  const accessibility = new AtspiAccessibility(client, apps);
  const closeWindow = createCloseWindow(env, apps);
  const frontmost = async (): Promise<AppInfo | undefined> => {
    const front = (await apps.list()).find((app) => app.frontmost);
    return front === undefined ? undefined : publicInfo(front);
  };
  return {
    ...linuxTraits,
    name: 'linux',
    apps: {
      list: async () => (await apps.list()).map(publicInfo),
      frontmost,
      isAlive: (pid) => Promise.resolve(isProcessAlive(pid)),
      activate: createActivate(env, apps, frontmost),
      closeWindow,
      // Asked before synthetic input only: no display is input's own typed no-display reason.
      windowAt: async (point) => {
        await assertDisplay(env);
        return windowOwnerAt(env, point);
      },
      activeWindow: () => activeWindow(env),
      restoreWindow: (window) => restoreWindow(env, window),
      windowPid: (window) => windowPid(env, window),
      ...createRelaunch({
        app: (pid) => apps.get(pid),
        tree: (pid) => accessibility.getTree(pid),
        closeWindow,
        isAlive: isProcessAlive,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        start: startDetached,
      }),
    },
    // The compact tree's read on demand (budgeted-read.ts) sits beside the whole read, on the same object.
    accessibility: Object.assign(accessibility, {
      readChildren: createReadChildren(client, apps),
      focusPath: createFocusPath(client, apps, (bus) => accessibility.observe(bus)),
    }),
    input: lazyInput(env, async (pid) => (await apps.get(pid).catch(() => undefined))?.windows.map((window) => window.title) ?? []),
    screen: createScreen(env, apps),
    ...(session.found.length === 0 ? {} : { discovered: session.found }),
    close: () => {
      client.close();
      return Promise.resolve();
    },
  };
}

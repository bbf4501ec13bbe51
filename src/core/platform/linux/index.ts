import type { InputBackend, Platform } from '../types';
import { canTypeAll } from '../keymap';
import { createNutInput } from '../nut-input';
import { AtspiAccessibility } from './accessibility';
import { createActivate } from './activate';
import type { AppInfo } from '../../../shared/ui-node';
import { AppDirectory, type AppEntry } from './apps';
import { isProcessAlive } from '../process';
import { AtspiClient } from './client';
import { assertDisplay } from './display';
import { createScreen } from './screen';

/**
 * Input is created on first use: reading trees needs only D-Bus, and a machine with
 * AT-SPI but no reachable X display still gets a clear UI_NOT_AVAILABLE for input alone.
 */
function lazyInput(env: Record<string, string | undefined>): InputBackend {
  let input: Promise<InputBackend> | undefined;
  const load = (): Promise<InputBackend> => {
    input ??= assertDisplay(env).then(createNutInput);
    input.catch(() => (input = undefined));
    return input;
  };
  return {
    click: async (point) => (await load()).click(point),
    moveMouse: async (point) => (await load()).moveMouse(point),
    mouseDown: async () => (await load()).mouseDown(),
    mouseUp: async () => (await load()).mouseUp(),
    typeText: async (text) => (await load()).typeText(text),
    pressKey: async (key, modifiers, pid) => (await load()).pressKey(key, modifiers, pid),
    scroll: async (point, direction, amount) => (await load()).scroll(point, direction, amount),
    // The keymap is known without loading nut-js.
    canType: canTypeAll,
  };
}

/** What callers see of an app: the bus name and toolkit stay inside the backend. */
function publicInfo({ bus: _bus, gtk4: _gtk4, bridge: _bridge, ...app }: AppEntry): AppInfo {
  return app;
}

export async function createLinuxPlatform(env: Record<string, string | undefined> = process.env): Promise<Platform> {
  // Connects on the first call: a broken desktop is that call's UI_NOT_AVAILABLE, and a later call connects again.
  const client = AtspiClient.open(env);
  const apps = new AppDirectory(client);
  const frontmost = async (): Promise<AppInfo | undefined> => {
    const front = (await apps.list()).find((app) => app.frontmost);
    return front === undefined ? undefined : publicInfo(front);
  };
  return {
    name: 'linux',
    apps: {
      list: async () => (await apps.list()).map(publicInfo),
      frontmost,
      isAlive: (pid) => Promise.resolve(isProcessAlive(pid)),
      activate: createActivate(env, apps, frontmost),
    },
    accessibility: new AtspiAccessibility(client, apps),
    input: lazyInput(env),
    screen: createScreen(env, apps),
    close: () => {
      client.close();
      return Promise.resolve();
    },
  };
}

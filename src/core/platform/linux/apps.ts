import { IFACE, ROOT_PATH, STATE, type ObjectRef } from '../../../../native/linux/atspi';
import { ProcessExitedError, UnsupportedOperationError } from '../../../shared/errors';
import type { AppInfo } from '../../../shared/ui-node';
import { identityText } from '../identity-text';
import { isProcessAlive } from '../process';
import type { AtspiClient } from './client';
import { hasState } from './states';
import { bridgeOf, UNKNOWN_BRIDGE, type Bridge } from './bridges';
import { awaitPageNames } from './late-names';
import { appNames } from './app-names';
import { wmClassesByPid } from './x11/wm-class';

/** Listing must stay quick while one app is frozen, so its calls get a short leash. */
const LIST_TIMEOUT_MS = 500;
const WM_CLASS_TIMEOUT_MS = 300;

export interface AppEntry extends AppInfo {
  bus: string;
  gtk4: boolean;
  /** The toolkit's bridge, from the Application interface: which calls the app can take. */
  bridge: Bridge;
}

/** The bridge's own report of its toolkit ("gtk 3.24.38"): hostile text, bounded. */
function toolkitOf(name: string, version: string): { toolkit?: string } {
  const toolkit = identityText(`${name} ${version}`);
  return toolkit === undefined ? {} : { toolkit };
}

async function describeApp(
  client: AtspiClient,
  ref: ObjectRef,
  env: Record<string, string | undefined>,
  wmClasses: ReadonlyMap<number, string[]> | undefined,
  knownPid?: number,
): Promise<AppEntry | undefined> {
  const [bus] = ref;
  const root: ObjectRef = [bus, ROOT_PATH];
  const pid = knownPid ?? (await client.pidOf(bus, LIST_TIMEOUT_MS).catch(() => undefined));
  if (pid === undefined || pid === process.pid) return undefined;
  try {
    const [name, [windows], toolkit, version] = await Promise.all([
      client.property(root, IFACE.accessible, 'Name', LIST_TIMEOUT_MS),
      client.call(root, IFACE.accessible, 'GetChildren', undefined, undefined, LIST_TIMEOUT_MS),
      client.property(root, IFACE.application, 'ToolkitName', LIST_TIMEOUT_MS).catch(() => ''),
      client.property(root, IFACE.application, 'Version', LIST_TIMEOUT_MS).catch(() => ''),
    ]);
    const described = await Promise.all(
      (windows as ObjectRef[]).map(async (window) => {
        const [title, [states]] = await Promise.all([
          client.property(window, IFACE.accessible, 'Name', LIST_TIMEOUT_MS),
          client.call(window, IFACE.accessible, 'GetState', undefined, undefined, LIST_TIMEOUT_MS),
        ]);
        return { title: String(title), focused: hasState(states as number[], STATE.ACTIVE) };
      }),
    );
    const frontmost = described.some((window) => window.focused);
    // Names users type ("writer", "text editor") come from the desktop files, not the bus.
    // Without the X server's classes (an app found by pid), no desktop files either: those names are for matching by name.
    const names = wmClasses === undefined ? undefined : appNames(pid, env, wmClasses.get(pid));
    return {
      pid,
      bus,
      name: String(name),
      gtk4: String(toolkit).toUpperCase() === 'GTK' && String(version).startsWith('4'),
      bridge: bridgeOf(String(toolkit), String(version), String(name)),
      windows: described,
      ...(names === undefined ? {} : { aliases: names.aliases, kinds: names.kinds }),
      ...(names?.desktopId === undefined ? {} : { desktopId: names.desktopId }),
      ...(names?.processName === undefined ? {} : { processName: names.processName }),
      ...toolkitOf(String(toolkit), String(version)),
      ...(frontmost ? { frontmost } : {}),
    };
  } catch {
    // A frozen or half-started app still shows up, so the user can see it is there.
    return { pid, bus, name: `(not responding, pid ${pid})`, gtk4: false, bridge: UNKNOWN_BRIDGE, windows: [] };
  }
}

/** Of two buses of one pid, the entry kept for it: the later one when it has windows. */
function preferred(known: AppEntry | undefined, candidate: AppEntry): AppEntry {
  return known === undefined || candidate.windows.length > 0 ? candidate : known;
}

/** Apps registered with AT-SPI, by pid. */
export class AppDirectory {
  private readonly byPid = new Map<number, AppEntry>();

  constructor(
    private readonly client: AtspiClient,
    private readonly env: Record<string, string | undefined> = process.env,
  ) {}

  async list(): Promise<AppEntry[]> {
    // WM_CLASS comes from the X server, alongside the registry: extra evidence for names, never waited on long.
    const [refs, wmClasses] = await Promise.all([this.client.registryChildren(), wmClassesByPid(this.env, WM_CLASS_TIMEOUT_MS)]);
    const apps = (await Promise.all(refs.map((ref) => describeApp(this.client, ref, this.env, wmClasses)))).filter((app) => app !== undefined);
    // Nothing registered and accessibility off (and not ours to turn on): that is the reason, not an empty desktop.
    const off = apps.length === 0 ? this.client.accessibilityOff() : undefined;
    if (off !== undefined) throw off;
    this.byPid.clear();
    for (const app of apps) this.byPid.set(app.pid, preferred(this.byPid.get(app.pid), app));
    return apps;
  }

  /** The app for a pid, listing again when it is not known yet (it may have just started). */
  async get(pid: number): Promise<AppEntry> {
    const app = await this.find(pid);
    // Gecko names a page late to a client's first asker: every read, find or action of this client waits for it once (late-names.ts).
    if (app.bridge.lateFacts) await awaitPageNames(this.client, app.bus);
    return app;
  }

  /**
   * The app for one pid, without a whole listing: the registry's buses, one pid each, and only
   * the pid's own described. A CLI call given --pid spent most of its time before the first call
   * to the app in list()'s X server query and desktop files (names for matching by name, not by
   * pid). The same choice as list() among a pid's buses (`preferred`). Kept until the
   * next list(), which replaces it with the named entry.
   */
  private async describePid(pid: number): Promise<AppEntry | undefined> {
    const refs = await this.client.registryChildren();
    const pids = await Promise.all(refs.map((ref) => this.client.pidOf(ref[0], LIST_TIMEOUT_MS).catch(() => undefined)));
    const own = refs.filter((_ref, index) => pids[index] === pid);
    const apps = (await Promise.all(own.map((ref) => describeApp(this.client, ref, this.env, undefined, pid)))).filter((app) => app !== undefined);
    const app = apps.reduce<AppEntry | undefined>(preferred, undefined);
    if (app !== undefined) this.byPid.set(pid, app);
    return app;
  }

  private async find(pid: number): Promise<AppEntry> {
    const known = this.byPid.get(pid);
    if (known !== undefined && isProcessAlive(pid)) return known;
    if (!isProcessAlive(pid)) throw new ProcessExitedError(pid);
    const found = (await this.describePid(pid)) ?? (await this.list(), this.byPid.get(pid));
    if (found !== undefined) return found;
    throw new UnsupportedOperationError(
      `pid ${pid} is running but has no accessibility tree: it is not registered with AT-SPI2 (GTK apps started with NO_AT_BRIDGE=1, or Chromium/Electron without --force-renderer-accessibility)`,
    );
  }
}

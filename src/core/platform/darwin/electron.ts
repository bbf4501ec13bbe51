import type { Pointer } from '../../../../native/macos';
import { AXError } from './ax-errors';
import type { AxClient } from './ax-client';

/** Chromium-based browsers and Firefox build their tree only when a screen reader seems present. */
const ENHANCED_UI_BUNDLES = [
  /^com\.google\.Chrome/,
  /^com\.microsoft\.edgemac/,
  /^com\.brave\.Browser/,
  /^com\.vivaldi\.Vivaldi/,
  /^org\.chromium\.Chromium/,
  /^company\.thebrowser\.Browser/,
  /^com\.operasoftware\.Opera/,
  /^org\.mozilla\.firefox/,
];

export interface EnablerOptions {
  sleep: (ms: number) => Promise<void>;
  /** A monotonic clock in ms: the wait is a deadline, since each look at the tree takes time too. */
  now: () => number;
  /** The app's bundle id, when known, to recognize browsers. */
  bundleIdOf: (pid: number) => string | undefined;
  /** True once the app exposes web content (an AXWebArea). */
  hasWebContent: (pid: number, app: Pointer) => Promise<boolean>;
  pollMs?: number;
  timeoutMs?: number;
}

/**
 * How long a first read waits for web content. A cold VS Code took 2.8 s to show its AXWebArea
 * (trycua/cua#3783, which polls 100 ms steps for 4 s), and Electron debounces activation for
 * about 2 s (different-ai/openwork#4595), so 1.5 s gave up on apps that were on their way.
 */
export const WEB_CONTENT_WAIT_MS = 4000;
const POLL_MS = 100;

type Switch = 'AXManualAccessibility' | 'AXEnhancedUserInterface';

/** Per pid: the switches the app took, whether its web content was seen since, and when they were last set. */
interface Enabled {
  switches: Switch[];
  seen: boolean;
  setAt: number;
}

/**
 * Electron and Chromium trees are empty until accessibility is switched on. Electron
 * answers AXManualAccessibility (electron/electron#10305); browsers answer the private
 * AXEnhancedUserInterface, which also slows window animations, so it is set only for them and
 * turned off again when Deskpilot stops (release).
 *
 * The tree is built asynchronously. The first read sets the switch once and polls for an
 * AXWebArea for up to WEB_CONTENT_WAIT_MS, without setting it again meanwhile (that restarts
 * Electron's debounce, openwork#4595). When the web area shows, the switch is set once more:
 * that second set is what attaches the editor buffer in VS Code-like apps (cua#3783). A read
 * that saw no web area is not remembered as done: a switch set before the window showed is
 * ignored (FuJacob/cotabby#19), so a later read looks once and, still seeing none, sets the
 * switch again for the next one, without waiting again (cua#3783 backs off the same way). It is
 * set again only once the last set has had WEB_CONTENT_WAIT_MS: each set restarts Electron's
 * debounce, so an agent reading every few hundred milliseconds would otherwise keep the tree
 * empty for good (issue 29, point 7).
 */
export class ChromiumEnabler {
  private readonly enabled = new Map<number, Enabled>();
  private readonly pending = new Map<number, Promise<void>>();

  constructor(
    private readonly client: AxClient,
    private readonly options: EnablerOptions,
  ) {}

  /** `signal`: an abort ends the wait for web content (the read then rejects with it). */
  async ensure(pid: number, app: Pointer, signal?: AbortSignal): Promise<void> {
    const known = this.enabled.get(pid);
    if (known !== undefined && (known.seen || known.switches.length === 0)) return;
    let pending = this.pending.get(pid);
    if (pending === undefined) {
      pending = (known === undefined ? this.enable(pid, app, signal) : this.lookAgain(pid, app, known)).finally(() => this.pending.delete(pid));
      this.pending.set(pid, pending);
    }
    await pending;
    // A read that joined another's wait still stops at its own abort.
    signal?.throwIfAborted();
  }

  forget(pid: number): void {
    this.enabled.delete(pid);
  }

  /**
   * AXEnhancedUserInterface off again in every live browser it was set on: it is VoiceOver's
   * switch and slows window animations (rxhanson/Rectangle#912) for as long as it stays on.
   */
  async release(): Promise<void> {
    const { cf, native } = this.client;
    for (const [pid, state] of this.enabled) {
      if (!state.switches.includes('AXEnhancedUserInterface') || !this.client.isAlive(pid)) continue;
      await cf.owned(this.client.application(pid), (app) => this.client.set(app, 'AXEnhancedUserInterface', native.kCFBooleanFalse)).catch(() => undefined);
    }
    this.enabled.clear();
  }

  /** The first read of this pid. A hung app is not waited for: the walk's own first call reports the TIMEOUT. */
  private async enable(pid: number, app: Pointer, signal: AbortSignal | undefined): Promise<void> {
    const electron = await this.switchOn(pid, app, 'AXManualAccessibility');
    if (electron === 'timeout') return;
    const browser = ENHANCED_UI_BUNDLES.some((pattern) => pattern.test(this.options.bundleIdOf(pid) ?? ''));
    const enhanced = browser ? await this.switchOn(pid, app, 'AXEnhancedUserInterface') : false;
    if (enhanced === 'timeout') return;
    const switches: Switch[] = [...(electron ? ['AXManualAccessibility' as const] : []), ...(enhanced ? ['AXEnhancedUserInterface' as const] : [])];
    const { sleep, now, hasWebContent, pollMs = POLL_MS, timeoutMs = WEB_CONTENT_WAIT_MS } = this.options;
    const state: Enabled = { switches, seen: false, setAt: now() };
    this.enabled.set(pid, state);
    if (switches.length === 0) return;
    const deadline = now() + timeoutMs;
    for (;;) {
      // Checked before each look: the first set stays recorded, so the next read only looks.
      signal?.throwIfAborted();
      if (await hasWebContent(pid, app)) return this.seen(pid, app, state);
      if (now() >= deadline) return;
      await sleep(pollMs);
    }
  }

  /** A later read after a miss: one look, and the switch set again if there is still nothing and the last set has had its time. */
  private async lookAgain(pid: number, app: Pointer, state: Enabled): Promise<void> {
    if (await this.options.hasWebContent(pid, app)) return this.seen(pid, app, state);
    const { now, timeoutMs = WEB_CONTENT_WAIT_MS } = this.options;
    if (now() - state.setAt < timeoutMs) return;
    state.setAt = now();
    for (const name of state.switches) if ((await this.switchOn(pid, app, name)) === 'timeout') return;
  }

  private async seen(pid: number, app: Pointer, state: Enabled): Promise<void> {
    state.seen = true;
    for (const name of state.switches) if ((await this.switchOn(pid, app, name)) === 'timeout') return;
  }

  /**
   * True when the app took the switch. Electron before the 23–25 backports set it but
   * answered kAXErrorAttributeUnsupported (electron#30644, #37465), which every non-Electron
   * app answers too; so that code is ignored, and such an app is not waited for. 'timeout':
   * the app is alive but did not answer (hung), so the read goes on and fails on its own call.
   */
  private async switchOn(pid: number, app: Pointer, attribute: Switch): Promise<boolean | 'timeout'> {
    const code = await this.client.set(app, attribute, this.client.native.kCFBooleanTrue);
    if (code === AXError.Success) return true;
    if (code === AXError.CannotComplete && this.client.isAlive(pid)) return 'timeout';
    if (code === AXError.APIDisabled || code === AXError.CannotComplete || code === AXError.InvalidUIElement) {
      throw this.client.fail(code, `AXUIElementSetAttributeValue(${attribute})`, pid);
    }
    return false;
  }
}

/** Chromium exposes page content under an AXWebArea once its accessibility is on. */
export function containsWebArea(node: { platformRole: string; children?: { platformRole: string; children?: unknown[] }[] }): boolean {
  const stack: { platformRole: string; children?: unknown[] }[] = [node];
  while (stack.length > 0) {
    const current = stack.pop() as { platformRole: string; children?: unknown[] };
    if (current.platformRole.startsWith('AXWebArea')) return true;
    stack.push(...((current.children ?? []) as { platformRole: string; children?: unknown[] }[]));
  }
  return false;
}

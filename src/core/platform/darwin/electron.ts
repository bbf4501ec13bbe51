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
  /** The app's bundle id, when known, to recognize browsers. */
  bundleIdOf: (pid: number) => string | undefined;
  /** True once the app exposes web content (an AXWebArea). */
  hasWebContent: (pid: number, app: Pointer) => Promise<boolean>;
  pollMs?: number;
  timeoutMs?: number;
}

/**
 * Electron and Chromium trees are empty until accessibility is switched on. Electron
 * answers AXManualAccessibility (electron/electron#10305); browsers answer the private
 * AXEnhancedUserInterface, which also slows window animations, so it is set only for them.
 * The tree is built asynchronously, so the first walk waits (polls) for web content.
 * Done once per pid.
 */
export class ChromiumEnabler {
  private readonly done = new Map<number, Promise<void>>();

  constructor(
    private readonly client: AxClient,
    private readonly options: EnablerOptions,
  ) {}

  ensure(pid: number, app: Pointer): Promise<void> {
    let pending = this.done.get(pid);
    if (pending === undefined) {
      const settled = this.enable(pid, app);
      // A timed-out switch is tried again on the next read instead of being remembered as done.
      pending = settled.then((complete) => {
        if (!complete) this.done.delete(pid);
      });
      this.done.set(pid, pending);
      pending.catch(() => this.done.delete(pid));
    }
    return pending;
  }

  forget(pid: number): void {
    this.done.delete(pid);
  }

  /** False when the app did not answer in time: nothing is waited for, and the walk's own first call reports the TIMEOUT. */
  private async enable(pid: number, app: Pointer): Promise<boolean> {
    const electron = await this.switchOn(pid, app, 'AXManualAccessibility');
    if (electron === 'timeout') return false;
    const browser = ENHANCED_UI_BUNDLES.some((pattern) => pattern.test(this.options.bundleIdOf(pid) ?? ''));
    const enhanced = browser ? await this.switchOn(pid, app, 'AXEnhancedUserInterface') : false;
    if (enhanced === 'timeout') return false;
    if (!electron && !enhanced) return true;
    const { sleep, hasWebContent, pollMs = 100, timeoutMs = 1500 } = this.options;
    for (let waited = 0; waited < timeoutMs; waited += pollMs) {
      if (await hasWebContent(pid, app)) return true;
      await sleep(pollMs);
    }
    return true;
  }

  /**
   * True when the app took the switch. Electron before the 23–25 backports set it but
   * answered kAXErrorAttributeUnsupported (electron#30644, #37465), which every non-Electron
   * app answers too; so that code is ignored, and such an app is not waited for. 'timeout':
   * the app is alive but did not answer (hung), so the read goes on and fails on its own call.
   */
  private async switchOn(pid: number, app: Pointer, attribute: string): Promise<boolean | 'timeout'> {
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

import type { AppStatus } from '../../shared/ipc';

export type HotkeyStatus = AppStatus['hotkey'];

/** The part of Electron's globalShortcut the hotkey needs. */
export interface ShortcutApi {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

/**
 * The one global shortcut that toggles the window. Electron's register() returns false when
 * another app or the OS holds the combination, and throws on one it cannot parse; both leave
 * Deskpilot without a hotkey, which the status and a notice say in words.
 */
export class Hotkey {
  private readonly shortcuts: ShortcutApi;
  private readonly onPress: () => void;
  private current: HotkeyStatus = { accelerator: '', registered: false };

  constructor(shortcuts: ShortcutApi, onPress: () => void) {
    this.shortcuts = shortcuts;
    this.onPress = onPress;
  }

  get status(): HotkeyStatus {
    return this.current;
  }

  /**
   * Registers the configured accelerator (start-up, or a retry after it failed). A failure
   * becomes the status, unless a working shortcut is kept.
   */
  set(accelerator: string): HotkeyStatus {
    const attempt = this.change(accelerator);
    if (!attempt.registered && !this.current.registered) this.current = attempt;
    return attempt;
  }

  /**
   * Switches to `accelerator` only once it is known to work: the new one is registered first,
   * and the old one is let go only after that. A failure changes nothing and says why.
   */
  change(accelerator: string): HotkeyStatus {
    if (this.current.registered && this.current.accelerator === accelerator) return this.current;
    const attempt = this.register(accelerator);
    if (attempt.registered) {
      if (this.current.registered) this.shortcuts.unregister(this.current.accelerator);
      this.current = attempt;
    }
    return attempt;
  }

  private register(accelerator: string): HotkeyStatus {
    let problem: string;
    try {
      if (this.shortcuts.register(accelerator, this.onPress)) return { accelerator, registered: true };
      problem = `${accelerator} is already used by another app or the system`;
    } catch (error) {
      problem = `${accelerator} is not a shortcut Deskpilot can use (${error instanceof Error ? error.message : String(error)})`;
    }
    const consequence = this.current.registered
      ? `, so ${this.current.accelerator} stays the hotkey. Choose another one, e.g. Control+Shift+Space.`
      : ', so Deskpilot has no hotkey. Choose another one in Settings (e.g. Control+Shift+Space), or open Deskpilot from its tray icon.';
    return { accelerator, registered: false, error: problem + consequence };
  }

  dispose(): void {
    if (this.current.registered) this.shortcuts.unregister(this.current.accelerator);
    this.current = { ...this.current, registered: false };
  }
}

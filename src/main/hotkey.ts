import type { AppStatus } from '../shared/ipc';

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

  /** Replaces the registered shortcut with `accelerator`. */
  set(accelerator: string): HotkeyStatus {
    if (this.current.registered) this.shortcuts.unregister(this.current.accelerator);
    let registered = false;
    let problem: string | undefined;
    try {
      registered = this.shortcuts.register(accelerator, this.onPress);
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    this.current = registered
      ? { accelerator, registered }
      : {
          accelerator,
          registered,
          error:
            problem === undefined
              ? `${accelerator} is already used by another app or the system, so Deskpilot has no hotkey. Choose another one in Settings (e.g. Control+Shift+Space), or open Deskpilot from its tray icon.`
              : `${accelerator} is not a shortcut Deskpilot can use (${problem}). Choose another one in Settings, e.g. Alt+Space or Control+Shift+Space.`,
        };
    return this.current;
  }

  dispose(): void {
    if (this.current.registered) this.shortcuts.unregister(this.current.accelerator);
    this.current = { ...this.current, registered: false };
  }
}

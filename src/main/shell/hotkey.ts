import { createI18n, type Translator } from '../../shared/i18n/i18n';
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
  private readonly i18n: Translator;
  private current: HotkeyStatus = { accelerator: '', registered: false };

  /** `i18n` follows the UI's language: the failure is said in it when it happens. */
  constructor(shortcuts: ShortcutApi, onPress: () => void, i18n: Translator = createI18n('en')) {
    this.shortcuts = shortcuts;
    this.onPress = onPress;
    this.i18n = i18n;
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
    const { t } = this.i18n;
    let problem: string;
    try {
      if (this.shortcuts.register(accelerator, this.onPress)) return { accelerator, registered: true };
      problem = t('hotkey.taken', { accelerator });
    } catch (error) {
      problem = t('hotkey.invalid', { accelerator, error: error instanceof Error ? error.message : String(error) });
    }
    const error = this.current.registered ? t('hotkey.kept', { problem, current: this.current.accelerator }) : t('hotkey.none', { problem });
    return { accelerator, registered: false, error };
  }

  dispose(): void {
    if (this.current.registered) this.shortcuts.unregister(this.current.accelerator);
    this.current = { ...this.current, registered: false };
  }
}

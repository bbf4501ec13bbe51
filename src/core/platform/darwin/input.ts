import type { InputBackend, Modifier, Point, ScrollDirection } from '../types';
import type { CgEventInput } from './cgevent-input';

export type Driver = 'nut-js' | 'cgevent';

/**
 * CGEvent first for every step, nut-js only when the CGEvent driver refused a step before it
 * posted anything (a NULL event, a key it has no code for); `lastDriver` says which one ran.
 *
 * Why CGEvent first (issue 29, points 3 and 4):
 * - Text and keys: nut-js applies US shift rules, and libnut builds its character table once,
 *   from unshifted characters only (libnut-core src/macos/keycode.c, keyCodeForChar). On a German
 *   layout "@" came out as '"', "(" as ")", and '"' posted a system-defined event that typed
 *   nothing and raised no error. The CGEvent driver reads the current layout (UCKeyTranslate),
 *   sends the character as the event's Unicode string and paces each event.
 * - Clicks: nut-js sends mouse down and up back to back (autoDelayMs 0), and such pairs are
 *   dropped (stablyai/orca#12839; SwiftAutoGUI#115, #116). The CGEvent driver waits between them.
 * So text never goes through nut-js on macOS, not even as a fallback: a character typed through
 * US rules on another layout is a wrong character, worse than a clear error.
 */
export class DarwinInput implements InputBackend {
  private nut: Promise<InputBackend> | undefined;
  // Until a call runs, the driver that will be tried first.
  private driver: Driver = 'cgevent';

  constructor(
    private readonly loadNut: () => Promise<InputBackend>,
    private readonly cg: CgEventInput,
    /**
     * Brings the app and window last acted on to the front before a click, a press or a scroll.
     * Pointer events go through the HID tap where a real mouse would put them, so they land in
     * whatever window is on top at that point; and a click on a window in the background is
     * often taken just to activate it (MacosUseSDK ActionCoordinator.swift activates the app
     * before input for that reason). Keys rely on the engine, which makes their app frontmost.
     */
    private readonly raise: () => Promise<void> = () => Promise.resolve(),
  ) {}

  get lastDriver(): Driver {
    return this.driver;
  }

  canType(): boolean {
    return true;
  }

  async click(point: Point): Promise<void> {
    await this.raise();
    return this.run(
      () => this.cg.click(point),
      (nut) => nut.click(point),
      { position: point },
    );
  }

  moveMouse(point: Point): Promise<void> {
    return this.run(
      () => this.cg.moveMouse(point),
      (nut) => nut.moveMouse(point),
      { position: point },
    );
  }

  async mouseDown(): Promise<void> {
    await this.raise();
    return this.run(
      () => this.cg.mouseDown(),
      (nut) => nut.mouseDown(),
      { held: true },
    );
  }

  mouseUp(): Promise<void> {
    return this.run(
      () => this.cg.mouseUp(),
      (nut) => nut.mouseUp(),
      { held: false },
    );
  }

  /** CGEvent only (see the class comment). */
  async typeText(text: string, signal?: AbortSignal): Promise<void> {
    this.driver = 'cgevent';
    await this.cg.typeText(text, signal);
  }

  pressKey(key: string, modifiers: Modifier[], pid?: number): Promise<void> {
    return this.run(
      () => this.cg.pressKey(key, modifiers, pid),
      (nut) => nut.pressKey(key, modifiers, pid),
    );
  }

  async scroll(point: Point, direction: ScrollDirection, amount: number): Promise<void> {
    await this.raise();
    return this.run(
      () => this.cg.scroll(point, direction, amount),
      (nut) => nut.scroll(point, direction, amount),
      { position: point },
    );
  }

  /**
   * nut-js redoes a step only when CGEvent cannot have acted: no event of the step was posted.
   * A failure after an event went out (a button down, half a key) is reported, never redone,
   * which could duplicate it.
   */
  private async run(viaCg: () => Promise<void>, viaNut: (nut: InputBackend) => Promise<void>, state: { position?: Point; held?: boolean } = {}): Promise<void> {
    const before = this.cg.postedCount;
    try {
      await viaCg();
      this.driver = 'cgevent';
      return;
    } catch (error) {
      if (this.cg.postedCount !== before) throw error;
      const nut = await this.loadedNut();
      if (nut === undefined) throw error;
      await viaNut(nut);
      this.driver = 'nut-js';
      this.cg.note(state);
    }
  }

  /** nut-js on first need; a load failure (a missing native binary) leaves CGEvent's error standing. */
  private async loadedNut(): Promise<InputBackend | undefined> {
    this.nut ??= this.loadNut();
    return this.nut.catch(() => undefined);
  }
}

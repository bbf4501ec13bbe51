import { DeskpilotError } from '../../../shared/errors';
import { canTypeAll } from '../keymap';
import type { InputBackend, Modifier, Point, ScrollDirection } from '../types';
import type { CgEventInput } from './cgevent-input';

export type Driver = 'nut-js' | 'cgevent';

/**
 * nut-js first, CGEvent when nut-js cannot load or cannot act (see run); `lastDriver` says which
 * one ran, for the action result. Text nut-js has no keys for (emoji, most non-ASCII) goes
 * straight to CGEvent's Unicode strings, so on macOS every text can be typed.
 */
export class DarwinInput implements InputBackend {
  private nut: Promise<InputBackend> | undefined;
  private nutUnavailable = false;
  /** Whether a nut-js call has succeeded: from then on its failures may come after events went out. */
  private nutWorked = false;
  // Until a call runs, the driver that will be tried first.
  private driver: Driver = 'nut-js';

  constructor(
    private readonly loadNut: () => Promise<InputBackend>,
    private readonly cg: CgEventInput,
    /**
     * Brings the app and window last acted on to the front before a click, a press or a scroll.
     * Both drivers post pointer events where a real mouse would (nut-js, and CGEvent through the
     * HID tap), so they land in whatever window is on top at that point; and a click on a window
     * in the background is often taken just to activate it (MacosUseSDK ActionCoordinator.swift
     * activates the app before input for that reason).
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
      'click',
      (nut) => nut.click(point),
      () => this.cg.click(point),
      { position: point },
    );
  }

  moveMouse(point: Point): Promise<void> {
    return this.run(
      'moveMouse',
      (nut) => nut.moveMouse(point),
      () => this.cg.moveMouse(point),
      { position: point },
      true,
    );
  }

  async mouseDown(): Promise<void> {
    await this.raise();
    return this.run(
      'mouseDown',
      (nut) => nut.mouseDown(),
      () => this.cg.mouseDown(),
      { held: true },
    );
  }

  mouseUp(): Promise<void> {
    return this.run(
      'mouseUp',
      (nut) => nut.mouseUp(),
      () => this.cg.mouseUp(),
      { held: false },
    );
  }

  typeText(text: string): Promise<void> {
    if (!canTypeAll(text)) return this.only(() => this.cg.typeText(text));
    return this.run(
      'typeText',
      (nut) => nut.typeText(text),
      () => this.cg.typeText(text),
    );
  }

  pressKey(key: string, modifiers: Modifier[], pid?: number): Promise<void> {
    return this.run(
      'pressKey',
      (nut) => nut.pressKey(key, modifiers, pid),
      () => this.cg.pressKey(key, modifiers, pid),
    );
  }

  async scroll(point: Point, direction: ScrollDirection, amount: number): Promise<void> {
    await this.raise();
    return this.run(
      'scroll',
      (nut) => nut.scroll(point, direction, amount),
      () => this.cg.scroll(point, direction, amount),
      { position: point },
    );
  }

  /**
   * CGEvent redoes a step only when nut-js cannot have acted: it failed to load, or its
   * very first call threw (no grant, missing binary), after which it is not used again.
   * Once nut-js has worked, a failure may come halfway (some characters typed, a button
   * down): redoing the step could duplicate it, so the error is reported instead; only a
   * move, which lands in the same place however often it runs, is redone.
   */
  private async run(
    step: string,
    viaNut: (nut: InputBackend) => Promise<void>,
    viaCg: () => Promise<void>,
    state: { position?: Point; held?: boolean } = {},
    idempotent = false,
  ): Promise<void> {
    const nut = await this.loadedNut();
    if (nut !== undefined) {
      try {
        await viaNut(nut);
        this.nutWorked = true;
        this.driver = 'nut-js';
        this.cg.note(state);
        return;
      } catch (error) {
        if (!this.nutWorked) this.nutUnavailable = true;
        else if (!idempotent) {
          this.driver = 'nut-js';
          throw new DeskpilotError(
            'ACTION_FAILED',
            `nut-js failed during ${step} and may have acted partly; not repeated through CGEvent: ${(error as Error).message}`,
            { cause: error },
          );
        }
      }
    }
    await this.only(viaCg);
  }

  private async only(viaCg: () => Promise<void>): Promise<void> {
    await viaCg();
    this.driver = 'cgevent';
  }

  /** nut-js once; a load failure (a missing native binary) switches it off for good. */
  private async loadedNut(): Promise<InputBackend | undefined> {
    if (this.nutUnavailable) return undefined;
    this.nut ??= this.loadNut();
    try {
      return await this.nut;
    } catch {
      this.nutUnavailable = true;
      return undefined;
    }
  }
}

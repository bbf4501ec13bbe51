import { canTypeAll } from '../keymap';
import type { InputBackend, Modifier, Point, ScrollDirection } from '../types';
import type { CgEventInput } from './cgevent-input';

export type Driver = 'nut-js' | 'cgevent';

/**
 * nut-js first, CGEvent when nut-js cannot load or a call fails; `lastDriver` says which
 * one ran, for the action result. Text nut-js has no keys for (emoji, most non-ASCII) goes
 * straight to CGEvent's Unicode strings, so on macOS every text can be typed.
 */
export class DarwinInput implements InputBackend {
  private nut: Promise<InputBackend> | undefined;
  private nutUnavailable = false;
  // Until a call runs, the driver that will be tried first.
  private driver: Driver = 'nut-js';

  constructor(private readonly loadNut: () => Promise<InputBackend>, private readonly cg: CgEventInput) {}

  get lastDriver(): Driver {
    return this.driver;
  }

  canType(): boolean {
    return true;
  }

  click(point: Point): Promise<void> {
    return this.run((nut) => nut.click(point), () => this.cg.click(point), { position: point });
  }

  moveMouse(point: Point): Promise<void> {
    return this.run((nut) => nut.moveMouse(point), () => this.cg.moveMouse(point), { position: point });
  }

  mouseDown(): Promise<void> {
    return this.run((nut) => nut.mouseDown(), () => this.cg.mouseDown(), { held: true });
  }

  mouseUp(): Promise<void> {
    return this.run((nut) => nut.mouseUp(), () => this.cg.mouseUp(), { held: false });
  }

  typeText(text: string): Promise<void> {
    if (!canTypeAll(text)) return this.only(() => this.cg.typeText(text));
    return this.run((nut) => nut.typeText(text), () => this.cg.typeText(text));
  }

  pressKey(key: string, modifiers: Modifier[], pid?: number): Promise<void> {
    return this.run((nut) => nut.pressKey(key, modifiers, pid), () => this.cg.pressKey(key, modifiers, pid));
  }

  scroll(point: Point, direction: ScrollDirection, amount: number): Promise<void> {
    return this.run((nut) => nut.scroll(point, direction, amount), () => this.cg.scroll(point, direction, amount), { position: point });
  }

  private async run(viaNut: (nut: InputBackend) => Promise<void>, viaCg: () => Promise<void>, state: { position?: Point; held?: boolean } = {}): Promise<void> {
    const nut = await this.loadedNut();
    if (nut !== undefined) {
      try {
        await viaNut(nut);
        this.driver = 'nut-js';
        this.cg.note(state);
        return;
      } catch {
        // Fall through: the same step through CGEvent.
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

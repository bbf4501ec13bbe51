import type { CGRect, Pointer } from '../../../../../native/macos';
import type { FakeHeap } from './fake-cf';
import type { FakeWindowInfo, FakeWorld } from './fake-world';

/** kCGWindowListOptionOnScreenOnly (CGWindow.h). */
const ON_SCREEN_ONLY = 1 << 0;
/** The window list options the fake understands; any other bit is a mistake in the code under test. */
const KNOWN_OPTIONS = ON_SCREEN_ONLY | (1 << 4);

export interface WindowKeys {
  owner: Pointer;
  number: Pointer;
  layer: Pointer;
  bounds: Pointer;
  alpha: Pointer;
}

/**
 * The WindowServer's side: the window list as CFDictionaries (keyed by the kCGWindow* constants,
 * bounds as the X/Y/Width/Height dictionary CGRectCreateDictionaryRepresentation makes), reading
 * such bounds back, and the Screen Recording grant. Everything lives on the CF heap, so a window
 * list that is not released shows as a leak.
 */
export class FakeWindowServer {
  constructor(
    private readonly heap: FakeHeap,
    private readonly world: FakeWorld,
    private readonly keys: WindowKeys,
    private readonly record: (name: string, args: unknown[]) => void,
  ) {}

  /** The windows, front to back; all of them, or only those on screen. */
  windows(option: number): FakeWindowInfo[] {
    const all = this.world.windowList ?? this.derived();
    return (option & ON_SCREEN_ONLY) !== 0 ? all.filter((window) => window.offScreen !== true) : all;
  }

  copyWindowInfo(option: number, relativeToWindow: number): Pointer {
    this.record('CGWindowListCopyWindowInfo', [option, relativeToWindow]);
    if ((option & ~KNOWN_OPTIONS) !== 0 || relativeToWindow !== 0)
      throw new Error(`CGWindowListCopyWindowInfo(${option}, ${relativeToWindow}) is not modelled`);
    const alive = new Set(this.world.apps.filter((app) => app.dead !== true).map((app) => app.pid));
    const { heap, keys } = this;
    const number = (value: number, type: number) => heap.add({ kind: 'number', value, type });
    const string = (text: string) => heap.add({ kind: 'string', text });
    const items = this.windows(option)
      .filter((window) => alive.has(window.pid))
      .map((window) => {
        const { x, y, width, height } = window.bounds;
        // CGWindow.h: the number and layer are kCFNumberSInt32Type, alpha a float, bounds a CGRect dictionary.
        const bounds = heap.add({
          kind: 'dictionary',
          keys: ['X', 'Y', 'Width', 'Height'].map(string),
          values: [x, y, width, height].map((value) => number(value, 6)),
        });
        return heap.add({
          kind: 'dictionary',
          keys: [keys.owner, keys.number, keys.layer, keys.bounds, keys.alpha].map((key) => heap.retain(key)),
          values: [number(window.pid, 3), number(window.number, 3), number(window.layer ?? 0, 3), bounds, number(window.alpha ?? 1, 5)],
        });
      });
    return heap.add({ kind: 'array', items });
  }

  /** CGRectMakeWithDictionaryRepresentation: false for a dictionary that is not a rectangle. */
  rectFromDictionary(dict: Pointer, rect: Partial<CGRect>): boolean {
    this.record('CGRectMakeWithDictionaryRepresentation', [dict]);
    const object = this.heap.get(dict);
    if (object.kind !== 'dictionary') throw new Error(`CGRectMakeWithDictionaryRepresentation on a ${object.kind}`);
    const field = (name: string): number | undefined => {
      const index = object.keys.findIndex((key) => {
        const found = this.heap.get(key);
        return found.kind === 'string' && found.text === name;
      });
      const value = index < 0 ? undefined : this.heap.get(object.values[index] ?? null);
      return value?.kind === 'number' ? value.value : undefined;
    };
    const [x, y, width, height] = ['X', 'Y', 'Width', 'Height'].map(field);
    if (x === undefined || y === undefined || width === undefined || height === undefined) return false;
    rect.origin = { x, y };
    rect.size = { width, height };
    return true;
  }

  preflight(): boolean {
    this.record('CGPreflightScreenCaptureAccess', []);
    return this.world.screenRecording ?? true;
  }

  request(): boolean {
    this.record('CGRequestScreenCaptureAccess', []);
    return this.world.screenRecording ?? true;
  }

  /** One entry per window node of each app, in app order. */
  private derived(): FakeWindowInfo[] {
    return this.world.apps.flatMap((app) =>
      app.windows.map((window, index) => ({
        pid: app.pid,
        number: app.pid * 100 + index + 1,
        bounds: { ...(window.position ?? { x: 0, y: 0 }), ...(window.size ?? { width: 0, height: 0 }) },
      })),
    );
  }
}

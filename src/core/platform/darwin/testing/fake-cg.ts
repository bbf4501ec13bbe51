import type { CGPoint, Pointer } from '../../../../../native/macos';
import type { FakeEvent, FakeHeap } from './fake-cf';

export interface Posted {
  pid?: number;
  tap?: number;
  event: FakeEvent;
  /** Lost on the way: a mouse or scroll event posted to a pid carries no window, so apps ignore it. */
  dropped?: true;
}

/**
 * CGEvent creation and posting: events live on the CF heap (so leaks show) and posts are kept.
 * Mouse and scroll events posted to a pid are marked dropped: the receiving NSEvent has no
 * window and AppKit routes it to no view (stablyai/orca#12839, Hammerspoon#2883, pyobjc#564).
 */
export class FakeCg {
  readonly posted: Posted[] = [];
  /** Event creation returns NULL from the create with this index on (0: the very first). */
  nullFrom: number | undefined;
  private created = 0;

  /** What reached an app. */
  get delivered(): Posted[] {
    return this.posted.filter((post) => post.dropped !== true);
  }

  constructor(
    private readonly heap: FakeHeap,
    private readonly record: (name: string, args: unknown[]) => void,
  ) {}

  create(source: null): Pointer {
    return this.event('CGEventCreate', [source], { kind: 'probe', location: { x: 5, y: 6 }, fields: {} });
  }

  location(event: Pointer): CGPoint {
    return this.of(event).location ?? { x: 0, y: 0 };
  }

  mouse(source: null, type: number, position: CGPoint, button: number): Pointer {
    return this.event('CGEventCreateMouseEvent', [source, type, position, button], { kind: 'mouse', type, location: position, button, fields: {} });
  }

  keyboard(source: null, virtualKey: number, keyDown: boolean): Pointer {
    return this.event('CGEventCreateKeyboardEvent', [source, virtualKey, keyDown], { kind: 'keyboard', keyCode: virtualKey, keyDown, fields: {} });
  }

  scroll(source: null, units: number, wheelCount: number, wheel1: number, wheel2: number, wheel3: number): Pointer {
    return this.event('CGEventCreateScrollWheelEvent2', [source, units, wheelCount, wheel1, wheel2, wheel3], {
      kind: 'scroll',
      units,
      wheels: [wheel1, wheel2, wheel3],
      fields: {},
    });
  }

  unicode(event: Pointer, length: number, utf16: number[]): void {
    this.record('CGEventKeyboardSetUnicodeString', [event, length, utf16]);
    this.of(event).unicode = String.fromCharCode(...utf16.slice(0, length));
  }

  flags(event: Pointer, flags: bigint): void {
    this.record('CGEventSetFlags', [event, flags]);
    this.of(event).flags = flags;
  }

  field(event: Pointer, field: number, value: number): void {
    this.of(event).fields[field] = value;
  }

  setLocation(event: Pointer, location: CGPoint): void {
    this.of(event).location = location;
  }

  post(target: { pid?: number; tap?: number }, event: Pointer): void {
    this.record(target.pid === undefined ? 'CGEventPost' : 'CGEventPostToPid', [target.pid ?? target.tap, event]);
    const copy = { ...this.of(event) };
    const dropped = target.pid !== undefined && (copy.kind === 'mouse' || copy.kind === 'scroll');
    this.posted.push({ ...target, event: copy, ...(dropped ? { dropped: true as const } : {}) });
  }

  private event(name: string, args: unknown[], event: FakeEvent): Pointer {
    this.record(name, args);
    this.created += 1;
    // NULL, as the CGEventCreate* functions return when they cannot make an event.
    if (this.nullFrom !== undefined && this.created > this.nullFrom) return null as unknown as Pointer;
    return this.heap.add({ kind: 'event', event });
  }

  private of(handle: Pointer): FakeEvent {
    const object = this.heap.get(handle);
    if (object.kind !== 'event') throw new Error('not a CGEvent');
    return object.event;
  }
}

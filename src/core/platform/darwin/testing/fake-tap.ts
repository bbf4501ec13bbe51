import type { CGPoint, EventTapHandler, Integer, Nullable, Pointer } from '../../../../../native/macos';
import type { FakeEvent, FakeHeap } from './fake-cf';

/** kCFRunLoopRunFinished, …TimedOut, …HandledSource (CFRunLoop.h). */
const RUN = { finished: 1, timedOut: 3, handledSource: 4 } as const;
const DISABLED_BY_TIMEOUT = 0xfffffffe;

/** An event the user makes while the tap listens, as the window server would deliver it. */
export interface TapInput {
  type: number;
  location?: CGPoint;
  keyCode?: number;
  flags?: bigint;
  /** What CGEventKeyboardGetUnicodeString answers. */
  unicode?: string;
  autorepeat?: boolean;
}

interface Tap {
  port: Pointer;
  mask: bigint;
  callback: Pointer;
  options: number;
  location: number;
  enabled: boolean;
  invalid: boolean;
}

/**
 * Event taps and the run loop they are pumped from. The Input Monitoring grant is `granted`;
 * `CGEventTapCreate` answers NULL without it, as Apple documents. Events the test `inject`s wait in
 * the tap's port until a `CFRunLoopRunInMode` in the mode the source was added in delivers one
 * (one mach message per call, as a zero-second run does), through the registered callback, on a
 * CGEvent the fake owns and releases after the callback: the code must not release it.
 */
export class FakeTaps {
  granted = true;
  /** The grant CGRequestListenEventAccess would give (it prompts; the user may say no). */
  grantOnRequest = false;
  requests = 0;
  /** CGEventTapCreate answers NULL although the preflight said yes (a grant withdrawn in between, a check that lies). */
  refuse = false;
  readonly taps: Tap[] = [];
  private readonly pending: TapInput[] = [];
  private readonly callbacks = new Map<Pointer, EventTapHandler>();
  private nextCallback = 0xcb000n;
  /** Sources added to the run loop, with the mode's name. */
  private readonly added = new Map<Pointer, string>();
  /** The next run delivers "tap disabled by timeout" first, as the window server does to a slow tap. */
  disableNext = false;
  readonly runLoop: Pointer;

  constructor(
    private readonly heap: FakeHeap,
    private readonly record: (name: string, args: unknown[]) => void,
    private readonly text: (handle: Nullable) => string,
  ) {
    this.runLoop = heap.add({ kind: 'null' }, true);
  }

  /** Callbacks registered and not unregistered: koffi has 8192 slots, a leak uses one up. */
  get liveCallbacks(): number {
    return this.callbacks.size;
  }

  inject(...inputs: TapInput[]): void {
    this.pending.push(...inputs);
  }

  preflight(): boolean {
    this.record('CGPreflightListenEventAccess', []);
    return this.granted;
  }

  request(): boolean {
    this.record('CGRequestListenEventAccess', []);
    this.requests += 1;
    if (this.grantOnRequest) this.granted = true;
    return this.granted;
  }

  register(handler: EventTapHandler): Pointer {
    const pointer = (this.nextCallback += 0x10n);
    this.callbacks.set(pointer, handler);
    return pointer;
  }

  unregister(pointer: Pointer): void {
    if (!this.callbacks.delete(pointer)) throw new Error('koffi.unregister of a callback that is not registered');
  }

  create(location: number, place: number, options: number, mask: bigint, callback: Pointer, userInfo: null): Nullable {
    this.record('CGEventTapCreate', [location, place, options, mask, callback, userInfo]);
    if (!this.callbacks.has(callback)) throw new Error('CGEventTapCreate with a callback koffi did not register');
    if (!this.granted || this.refuse) return null;
    const port = this.heap.add({ kind: 'machPort' });
    this.taps.push({ port, mask, callback, options, location, enabled: true, invalid: false });
    return port;
  }

  enable(port: Pointer, enable: boolean): void {
    this.record('CGEventTapEnable', [port, enable]);
    this.tap(port).enabled = enable;
  }

  createSource(alloc: null, port: Pointer, order: number): Nullable {
    this.record('CFMachPortCreateRunLoopSource', [alloc, port, order]);
    this.tap(port);
    return this.heap.add({ kind: 'runLoopSource', port });
  }

  invalidate(port: Pointer): void {
    this.record('CFMachPortInvalidate', [port]);
    this.tap(port).invalid = true;
  }

  current(): Pointer {
    this.record('CFRunLoopGetCurrent', []);
    return this.runLoop;
  }

  /** The run loop holds its sources (+1), as CFRunLoopAddSource does, until they are removed. */
  addSource(runLoop: Pointer, source: Pointer, mode: Pointer): void {
    const name = this.text(mode);
    this.record('CFRunLoopAddSource', [runLoop, source, name]);
    if (runLoop !== this.runLoop) throw new Error('CFRunLoopAddSource on an unknown run loop');
    this.heap.retain(source);
    this.added.set(source, name);
  }

  removeSource(runLoop: Pointer, source: Pointer, mode: Pointer): void {
    const name = this.text(mode);
    this.record('CFRunLoopRemoveSource', [runLoop, source, name]);
    if (this.added.get(source) !== name) throw new Error('CFRunLoopRemoveSource of a source not in that mode');
    this.added.delete(source);
    this.heap.release(source);
  }

  run(mode: Pointer, seconds: number, returnAfterSourceHandled: boolean): number {
    const name = this.text(mode);
    this.record('CFRunLoopRunInMode', [name, seconds, returnAfterSourceHandled]);
    const taps = [...this.added.entries()]
      .filter(([, each]) => each === name)
      .map(([source]) => this.heap.get(source))
      .map((source) => (source.kind === 'runLoopSource' ? this.taps.find((tap) => tap.port === source.port) : undefined))
      .filter((tap): tap is Tap => tap !== undefined && !tap.invalid);
    if (taps.length === 0) return RUN.finished;
    const tap = taps[0] as Tap;
    const handler = this.callbacks.get(tap.callback) as EventTapHandler;
    if (this.disableNext) {
      this.disableNext = false;
      tap.enabled = false;
      handler(null, DISABLED_BY_TIMEOUT, null, null);
      return RUN.handledSource;
    }
    const input = tap.enabled ? this.pending.shift() : undefined;
    if (input === undefined) return RUN.timedOut;
    if ((tap.mask & (1n << BigInt(input.type))) === 0n) return RUN.handledSource;
    const event: FakeEvent = {
      kind: input.keyCode === undefined ? 'mouse' : 'keyboard',
      type: input.type,
      location: input.location ?? { x: 0, y: 0 },
      ...(input.keyCode === undefined ? {} : { keyCode: input.keyCode }),
      flags: input.flags ?? 0n,
      ...(input.unicode === undefined ? {} : { unicode: input.unicode }),
      fields: { 8: input.autorepeat === true ? 1 : 0, 9: input.keyCode ?? 0 },
    };
    const handle = this.heap.add({ kind: 'event', event });
    try {
      handler(null, input.type, handle, null);
    } finally {
      // The system releases the event after the callback returns (CGEventTapCallBack, CGEventTypes.h).
      this.heap.release(handle);
    }
    return RUN.handledSource;
  }

  integerField(event: Pointer, field: number): Integer {
    return this.event(event).fields[field] ?? 0;
  }

  flags(event: Pointer): Integer {
    return this.event(event).flags ?? 0n;
  }

  unicode(event: Pointer, max: number, actual: [Integer], buffer: Uint16Array): void {
    const text = this.event(event).unicode ?? '';
    const units = Math.min(text.length, max, buffer.length);
    for (let index = 0; index < units; index += 1) buffer[index] = text.charCodeAt(index);
    actual[0] = units;
  }

  private event(handle: Pointer): FakeEvent {
    const object = this.heap.get(handle);
    if (object.kind !== 'event') throw new Error('not a CGEvent');
    return object.event;
  }

  private tap(port: Pointer): Tap {
    this.heap.get(port);
    const tap = this.taps.find((each) => each.port === port);
    if (tap === undefined) throw new Error('not an event tap');
    return tap;
  }
}

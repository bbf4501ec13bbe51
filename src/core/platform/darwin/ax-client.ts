import type { MacNative, Pointer } from '../../../../native/macos';
import { AXError, isMissing, mapAxError } from './ax-errors';
import type { CfRuntime } from './cf';

/**
 * The global cap on one AX call, set on the system-wide element (process-wide). A hung
 * app then costs this long per call instead of the system default (~6 s, undocumented).
 */
export const MESSAGING_TIMEOUT_SECONDS = 1.5;

/**
 * The AX IPC calls, run through koffi's async variants so a slow or hung app never blocks
 * the JS thread (in Electron that would be the Cocoa main thread). Every method that
 * returns a Pointer hands over ownership: the caller releases it (CfRuntime.owned).
 * `pid` is the app the element belongs to, for error mapping.
 */
export class AxClient {
  readonly native: MacNative;

  constructor(
    readonly cf: CfRuntime,
    readonly isAlive: (pid: number) => boolean,
    /** A monotonic clock in ms: how long a failing call took tells a busy app from one without accessibility. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.native = cf.native;
  }

  /** `started`: when the failing call began, if the caller timed it. */
  fail(code: number, call: string, pid: number, started?: number): Error {
    const timing = started === undefined ? undefined : { elapsedMs: this.now() - started, timeoutMs: MESSAGING_TIMEOUT_SECONDS * 1000 };
    return mapAxError(code, call, pid, this.isAlive, timing);
  }

  /** An attribute's value (owned), or undefined when the element has none. */
  async copy(element: Pointer, attribute: string, pid: number): Promise<Pointer | undefined> {
    const out: [Pointer | null] = [null];
    const started = this.now();
    const code = await this.native.async.AXUIElementCopyAttributeValue(element, this.cf.name(attribute), out);
    if (code === AXError.Success) return out[0] ?? undefined;
    this.cf.release(out[0]);
    if (isMissing(code)) return undefined;
    throw this.fail(code, `AXUIElementCopyAttributeValue(${attribute})`, pid, started);
  }

  /** One IPC for many attributes: a CFArray (owned) with one slot per name, CFNull or an AXError value where one failed. */
  async copyMultiple(element: Pointer, names: Pointer, pid: number): Promise<Pointer> {
    const out: [Pointer | null] = [null];
    const started = this.now();
    // Options 0: keep going past a failing attribute instead of stopping the whole batch.
    const code = await this.native.async.AXUIElementCopyMultipleAttributeValues(element, names, 0, out);
    if (code === AXError.Success && out[0] !== null) return out[0];
    this.cf.release(out[0]);
    throw this.fail(code === AXError.Success ? AXError.Failure : code, 'AXUIElementCopyMultipleAttributeValues', pid, started);
  }

  /**
   * Up to `max` values of an array attribute from `index` on (owned CFArray), for lists too big
   * to copy whole. Undefined when there is nothing there: no such attribute, or an index past
   * the end (kAXErrorIllegalArgument in AXUIElement.h), which a list that shrank also gives.
   */
  async copyRange(element: Pointer, attribute: string, index: number, max: number, pid: number): Promise<Pointer | undefined> {
    const out: [Pointer | null] = [null];
    const started = this.now();
    const code = await this.native.async.AXUIElementCopyAttributeValues(element, this.cf.name(attribute), index, max, out);
    if (code === AXError.Success) return out[0] ?? undefined;
    this.cf.release(out[0]);
    if (isMissing(code) || code === AXError.IllegalArgument) return undefined;
    throw this.fail(code, `AXUIElementCopyAttributeValues(${attribute})`, pid, started);
  }

  async count(element: Pointer, attribute: string, pid: number): Promise<number> {
    const out: [number | bigint | null] = [null];
    const started = this.now();
    const code = await this.native.async.AXUIElementGetAttributeValueCount(element, this.cf.name(attribute), out);
    if (code === AXError.Success) return Number(out[0] ?? 0);
    if (isMissing(code) || code === AXError.IllegalArgument) return 0;
    throw this.fail(code, `AXUIElementGetAttributeValueCount(${attribute})`, pid, started);
  }

  async actionNames(element: Pointer, pid: number): Promise<string[]> {
    const out: [Pointer | null] = [null];
    const started = this.now();
    const code = await this.native.async.AXUIElementCopyActionNames(element, out);
    if (code !== AXError.Success) {
      this.cf.release(out[0]);
      if (isMissing(code) || code === AXError.ActionUnsupported) return [];
      throw this.fail(code, 'AXUIElementCopyActionNames', pid, started);
    }
    if (out[0] === null) return [];
    return this.cf.ownedSync(out[0], (names) => this.cf.arrayItems(names).map((name) => this.cf.readString(name)));
  }

  /** The raw AXError: callers decide what a refusal means for their action. */
  perform(element: Pointer, action: string): Promise<number> {
    return this.native.async.AXUIElementPerformAction(element, this.cf.name(action));
  }

  /** The raw AXError; `value` is not consumed, the caller still releases it. */
  set(element: Pointer, attribute: string, value: Pointer): Promise<number> {
    return this.native.async.AXUIElementSetAttributeValue(element, this.cf.name(attribute), value);
  }

  async settable(element: Pointer, attribute: string, pid: number): Promise<boolean> {
    const out: [boolean | null] = [null];
    const started = this.now();
    const code = await this.native.async.AXUIElementIsAttributeSettable(element, this.cf.name(attribute), out);
    if (code === AXError.Success) return out[0] === true;
    if (isMissing(code)) return false;
    throw this.fail(code, `AXUIElementIsAttributeSettable(${attribute})`, pid, started);
  }

  async pidOf(element: Pointer): Promise<number> {
    const out: [number | null] = [null];
    const code = await this.native.async.AXUIElementGetPid(element, out);
    if (code !== AXError.Success || out[0] === null) throw this.fail(code, 'AXUIElementGetPid', 0);
    return out[0];
  }

  /** An owned app element, for `pid`. */
  application(pid: number): Pointer {
    const element = this.native.AXUIElementCreateApplication(pid);
    if (element === null) throw this.fail(AXError.Failure, 'AXUIElementCreateApplication', pid);
    return element;
  }
}

import type { Pointer } from '../../../../native/macos';
import type { Bounds } from '../../../shared/ui-node';
import type { HitElement, UserInputEvent, UserInputSource } from '../types';
import { AXError } from './ax-errors';
import type { AxClient } from './ax-client';
import { EventTap, TapEventType } from './event-tap';
import { keyOf } from './recorded-keys';
import { SECURE_SUBROLE, normalizeRole } from './roles';

/** How often the tap's port is drained: well under a human's 50 ms between presses, and one cheap FFI call when idle. */
const POLL_MS = 10;
/** Presses waiting for their hit test; past this the oldest are dropped with an error, so a stalled app cannot grow the queue. */
const MAX_WAITING = 256;
const MASK =
  (1n << BigInt(TapEventType.LeftMouseDown)) |
  (1n << BigInt(TapEventType.RightMouseDown)) |
  (1n << BigInt(TapEventType.OtherMouseDown)) |
  (1n << BigInt(TapEventType.KeyDown));
/** CGMouseButton as X numbers it (UserInputEvent): left 1, middle 2, right 3. */
const BUTTONS: Readonly<Record<number, number>> = { [TapEventType.LeftMouseDown]: 1, [TapEventType.OtherMouseDown]: 2, [TapEventType.RightMouseDown]: 3 };
const HIT_ATTRIBUTES = ['AXRole', 'AXSubrole', 'AXPosition', 'AXSize'] as const;

type Pending = { kind: 'key'; event: UserInputEvent } | { kind: 'button'; button: number; x: number; y: number };

/**
 * The user's presses on macOS, for `workflow record`: a listen-only event tap (event-tap.ts) that
 * needs Input Monitoring and takes nothing from the apps. Each press is read inside the tap's
 * callback (the event lives only that long); a pointer press is then hit-tested against the
 * recorded app's element (AXUIElementCopyElementAtPosition, asynchronously, right after the pump
 * that delivered it and before anything else of ours runs), so the recorder knows the element
 * under the pointer as it was, even where the tree's bounds overlap. Events reach `onEvent` in
 * the order they came.
 *
 * Secure Event Input: while a password field has the focus, macOS hands key events to no tap
 * (EnableSecureEventInput, Carbon's Events.h), so the typing there is never seen. The click into
 * the field is, and the recorder records the field as a secret parameter from it.
 */
export class MacUserInput implements UserInputSource {
  constructor(private readonly client: AxClient) {}

  listen(options: { pid?: number }, onEvent: (event: UserInputEvent) => void, onError: (error: Error) => void): Promise<{ close(): void }> {
    try {
      return Promise.resolve(this.start(options, onEvent, onError));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private start(options: { pid?: number }, onEvent: (event: UserInputEvent) => void, onError: (error: Error) => void): { close(): void } {
    const { native, cf } = this.client;
    const waiting: Pending[] = [];
    const tap = EventTap.open(
      native,
      MASK,
      (type, event) => {
        if (type === TapEventType.KeyDown) {
          const key = keyOf(native, event);
          if (key !== undefined) waiting.push({ kind: 'key', event: { kind: 'key', ...key } });
        } else {
          const { x, y } = native.CGEventGetLocation(event);
          waiting.push({ kind: 'button', button: BUTTONS[type] ?? 1, x, y });
        }
        if (waiting.length > MAX_WAITING) {
          waiting.shift();
          onError(new Error('input events came faster than they could be placed; the oldest was dropped'));
        }
      },
      onError,
    );
    // Owned until close: the app element hit-testing asks, and the names of one batched read per press.
    const app = options.pid === undefined ? null : this.client.application(options.pid);
    const names = cf.createArray(HIT_ATTRIBUTES.map((name) => cf.name(name)));
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let chain: Promise<void> = Promise.resolve();
    const close = (): void => {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      tap.close();
      // Hit tests still running hold the app element: release it after them.
      void chain.finally(() => {
        cf.release(app);
        cf.release(names);
      });
    };
    const deliver = (pending: Pending): Promise<void> => {
      if (pending.kind === 'key') {
        onEvent(pending.event);
        return Promise.resolve();
      }
      const hit = app === null || options.pid === undefined ? Promise.resolve(undefined) : this.hitTest(app, names, options.pid, pending.x, pending.y);
      return hit.then((found) =>
        onEvent({ kind: 'button', button: pending.button, x: pending.x, y: pending.y, ...(found === undefined ? {} : { hit: found }) }),
      );
    };
    const pump = (): void => {
      timer = undefined;
      if (closed) return;
      let open: boolean;
      try {
        open = tap.pump();
      } catch (error) {
        open = false;
        onError(error instanceof Error ? error : new Error(String(error)));
      }
      for (const pending of waiting.splice(0)) {
        chain = chain.then(() => deliver(pending)).catch((error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
      }
      if (!open) {
        onError(new Error('the event tap stopped; recording cannot see input any more'));
        close();
        return;
      }
      timer = setTimeout(pump, POLL_MS);
    };
    pump();
    return { close };
  }

  /** The element under the point in the app, read in one batch; undefined when there is none or the app does not answer. */
  private async hitTest(app: Pointer, names: Pointer, pid: number, x: number, y: number): Promise<HitElement | undefined> {
    const { native, cf } = this.client;
    const out: [Pointer | null] = [null];
    const code = await native.async.AXUIElementCopyElementAtPosition(app, x, y, out);
    const element = out[0];
    if (code !== AXError.Success || element === null) {
      cf.release(element);
      return undefined;
    }
    const batch = await cf.owned(element, (element) => this.client.copyMultiple(element, names, pid)).catch(() => undefined);
    if (batch === undefined) return undefined;
    return cf.ownedSync(batch, (batch) => {
      const slot = cf.slots(batch);
      const [role, subrole, position, size] = HIT_ATTRIBUTES.map((_name, index) => cf.toJs(slot(index)));
      if (typeof role !== 'string') return undefined;
      const sub = typeof subrole === 'string' ? subrole : undefined;
      const bounds: Bounds | undefined =
        typeof position === 'object' && 'x' in position && typeof size === 'object' && 'width' in size
          ? { x: position.x, y: position.y, width: size.width, height: size.height }
          : undefined;
      return { role: normalizeRole(role, sub), ...(bounds === undefined ? {} : { bounds }), secret: role === SECURE_SUBROLE || sub === SECURE_SUBROLE };
    });
  }
}

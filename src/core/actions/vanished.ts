import { DeskpilotError, NodeNotFoundError, isObjectGone } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import { overlay } from '../platform/overlay';
import type { AppListing, InputBackend, Platform } from '../platform/types';
import type { IndexedNode } from '../ui/tree-index';
import { notFoundError } from './locate';

/**
 * An element whose object vanished before anything reached the app. Apps make some objects on
 * demand and drop them again while the element stays: LibreOffice a sheet's cells, Qt a view's
 * items on every read, Firefox and Chromium a re-rendered list's rows. The id (slot, role, name)
 * outlives the object, so a fresh read finds the same element at a new object, and the action
 * is tried once more there. Only when nothing was done: see nothingReached.
 */

/** Input methods that only ask: every other one moves the pointer or sends keys. */
const INPUT_QUERIES = new Set<string | symbol>(['pointer', 'canType']);
/** App listing methods that only ask: every other one (activate, restoreWindow, closeWindow, …) changes the desktop. */
const APP_QUERIES = new Set<string | symbol>(['list', 'frontmost', 'isAlive', 'windowAt', 'activeWindow', 'windowPid', 'relaunchOffer']);

/** Every call of a method outside `queries` is counted before it runs: one added tomorrow counts too. */
function counting<T extends object>(inner: T, queries: ReadonlySet<string | symbol>, count: () => void): T {
  return new Proxy(inner, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (queries.has(key)) return method.bind(target);
      return (...args: unknown[]) => {
        count();
        return method.apply(target, args);
      };
    },
  });
}

/**
 * The platform the engine acts through, with every input and window call that may change
 * something counted (`sent`). Accessibility calls are counted by the backend itself
 * (AccessibilityBackend.actCalls), call by call, where a method may ask before it acts.
 */
export class EffectWatch {
  sent = 0;
  readonly platform: Platform;
  private readonly wrapped = new WeakMap<object, object>();

  constructor(inner: Platform) {
    const wrap = <T extends object>(part: T, queries: ReadonlySet<string | symbol>): T => {
      let counted = this.wrapped.get(part) as T | undefined;
      if (counted === undefined) {
        counted = counting(part, queries, () => (this.sent += 1));
        this.wrapped.set(part, counted);
      }
      return counted;
    };
    // Getters, so a part swapped on the platform later (a test's, a runtime's) is the one counted.
    const parts = {
      get input(): InputBackend {
        return wrap(inner.input, INPUT_QUERIES);
      },
      get apps(): AppListing {
        return wrap(inner.apps, APP_QUERIES);
      },
    };
    this.platform = overlay(inner, parts as Partial<Platform>);
  }

  /** Where an attempt starts: what had been sent to apps so far. */
  mark(): ActMark {
    return { calls: this.platform.accessibility.actCalls, sent: this.sent };
  }

  /**
   * THE LINE between an action that may be tried again and one that never is. True only when
   * the app said the element's object does not exist (ObjectGoneError) for the very first call
   * the attempt sent on an element (the backend's count moved by exactly that one call), and no
   * input and no window change went out meanwhile. Then the app received nothing it could act
   * on. After any other call (a press sent, text inserted, a value set, a focus grabbed, a key
   * typed, a window raised), even one that failed, the action is never repeated: doing it twice
   * is worse than an error. A backend that does not count its calls is never retried.
   */
  nothingReached(mark: ActMark, error: unknown): boolean {
    const calls = this.platform.accessibility.actCalls;
    return isObjectGone(error) && mark.calls !== undefined && calls === mark.calls + 1 && this.sent === mark.sent;
  }
}

export interface ActMark {
  calls: number | undefined;
  sent: number;
}

/**
 * The element a request named, found again in a fresh read after its object vanished: the same
 * id in the same slot (parent's slot, index among same-role siblings), with the same role and
 * name. Anything else throws NODE_NOT_FOUND (DRAG_TARGET_NOT_FOUND for a drag's destination)
 * saying why: the action never lands on a different element.
 */
export function foundAgain(index: Map<string, IndexedNode>, root: UiNode, before: IndexedNode, pid: number, cause: unknown, destination = false): IndexedNode {
  const id = before.node.id;
  const now = index.get(id);
  const was = `${before.node.role} "${before.node.name}"`;
  const fail = (why: string, data: Record<string, unknown> = { id, candidates: [] }): never => {
    const message = `${destination ? 'drag destination ' : ''}${id} (${was}) vanished from the app as it was acted on (nothing was done), and ${why}`;
    const details = { cause, data: { ...data, reason: 'object-gone' } };
    throw destination ? new DeskpilotError('DRAG_TARGET_NOT_FOUND', message, details) : new NodeNotFoundError(message, details);
  };
  if (now === undefined) {
    const missing = notFoundError(root, id, { role: before.node.role, name: before.node.name }, pid);
    return fail(`a fresh read no longer has it. ${missing.message}`, missing.data);
  }
  const same = now.node.role === before.node.role && now.node.name === before.node.name;
  if (!same || now.parentSlot !== before.parentSlot || now.roleIndex !== before.roleIndex) {
    return fail(`in a fresh read that id names ${now.node.role} "${now.node.name}" elsewhere; read the tree again for the current id`);
  }
  return now;
}

/**
 * askBeforeInput for one run: input the user approved in this run is not put to them again when
 * a second try (after a vanished object, when nothing was sent) needs exactly the same input,
 * for the same element; anything that differs in the least is asked about.
 */
export function approvedOnce<Request>(ask: ((request: Request) => Promise<void>) | undefined): (request: Request) => Promise<void> {
  const approved = new Set<string>();
  return async (request) => {
    if (ask === undefined) return;
    const key = JSON.stringify(request);
    if (approved.has(key)) return;
    await ask(request);
    approved.add(key);
  };
}

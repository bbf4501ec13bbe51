import { EVENT_MEMBER } from '../../../../native/linux/atspi';
import type { AtspiClient, TreeEvent } from './client';

interface Known {
  /** The subscription the app's events came through (client.watchToken): another one means events were missed between. */
  token: unknown;
  /** The focused node's path; undefined: the app said nothing has the focus. */
  path: string | undefined;
}

/** Apps whose focus is kept: a long-lived process sees apps come and go, and the oldest make way. */
const MAX_APPS = 64;

/** Sets an app's entry as the newest, the oldest making way past MAX_APPS. */
function setNewest<Value>(map: Map<string, Value>, bus: string, value: Value): void {
  map.delete(bus);
  map.set(bus, value);
  for (const oldest of map.keys()) {
    if (map.size <= MAX_APPS) return;
    map.delete(oldest);
  }
}

function gainsFocus(event: TreeEvent): boolean {
  return event.member === EVENT_MEMBER.focus || (event.member === EVENT_MEMBER.stateChanged && event.detail === 'focused' && event.detail1 === 1);
}

function losesFocus(event: TreeEvent): boolean {
  return event.member === EVENT_MEMBER.stateChanged && event.detail === 'focused' && event.detail1 === 0;
}

/**
 * Where each watched app's focus is, from its focus events, as screen readers keep it: asking
 * an app where its focus is means a Collection query over its whole tree (about 100 ms on a
 * 20,000-node page), so it is asked once per subscription and the events say the rest. What
 * is known holds only while the subscription it was learned on lasts (client.watchToken): an
 * unwatched app's events are lost, and a focus that left a node without saying where it went
 * is unknown again, not "nowhere".
 */
export class FocusTracker {
  private readonly known = new Map<string, Known>();
  /** Per app, the count of focus events heard when its last one came. */
  private readonly lastEvent = new Map<string, number>();
  private seq = 0;

  constructor(private readonly client: Pick<AtspiClient, 'onTreeEvent' | 'watchToken' | 'isWatched'>) {
    client.onTreeEvent((event) => this.heard(event));
  }

  /** The focus as the app's events tell it; undefined when they cannot (no subscription, or none since it last changed). */
  current(bus: string): { path: string | undefined } | undefined {
    const known = this.known.get(bus);
    if (known === undefined || !this.client.isWatched(bus) || known.token !== this.client.watchToken(bus)) return undefined;
    return { path: known.path };
  }

  /** A mark to hand back to `learned`: what was asked after it is superseded by any focus event after it. */
  mark(): number {
    return this.seq;
  }

  /** The app's answer to a question asked at `mark`, kept unless a focus event came since (that one is newer). */
  learned(bus: string, path: string | undefined, mark: number): void {
    if ((this.lastEvent.get(bus) ?? -1) > mark || !this.client.isWatched(bus)) return;
    setNewest(this.known, bus, { token: this.client.watchToken(bus), path });
  }

  /** The focus moved away from a node the tree no longer leads to: ask again. */
  forget(bus: string): void {
    this.known.delete(bus);
  }

  private heard(event: TreeEvent): void {
    const gains = gainsFocus(event);
    if (!gains && !losesFocus(event)) return;
    this.seq += 1;
    setNewest(this.lastEvent, event.bus, this.seq);
    if (gains) setNewest(this.known, event.bus, { token: this.client.watchToken(event.bus), path: event.path });
    else if (this.known.get(event.bus)?.path === event.path) this.known.delete(event.bus);
  }
}

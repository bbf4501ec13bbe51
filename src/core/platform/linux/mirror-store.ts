import type { RawNode } from '../../ui/ids';
import type { AtspiRef, TreeEvent } from './client';
import { AppMirror, MirrorUntrusted, type FallbackReason, type MirrorLimits, type MirrorReader } from './mirror';
import type { CacheRows } from './tree-fetch';

type Node = RawNode<AtspiRef>;
/** A full read of the app, telling `onRows` what the cache said, for the mirror to compare later reads with. */
export type FullRead = (onRows: (rows: CacheRows) => void) => Promise<Node>;

/** The part of the AT-SPI client the store needs, so tests can drive it with a fake event stream. */
export interface EventSource {
  watch(bus: string): Promise<void>;
  unwatch(bus: string): Promise<void>;
  isWatched(bus: string): boolean;
  /** Resolves once every event the app sent before it has been delivered. */
  barrier(bus: string, timeoutMs?: number): Promise<void>;
  onTreeEvent(listener: (event: TreeEvent) => void): () => void;
}

export interface MirrorStoreOptions extends MirrorLimits {
  /** A fresh read waits until the app has sent no event for this long… */
  quietMs: number;
  /** …but never longer than this, for an app that never goes quiet. */
  maxWaitMs: number;
  /** A mirror nobody read for this long is dropped, and its app's events are no longer forwarded. */
  idleMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_MIRROR_OPTIONS: Omit<MirrorStoreOptions, 'maxNodes' | 'maxDepth'> = { quietMs: 15, maxWaitMs: 250, idleMs: 60_000, maxPending: 2000 };

/** What the mirrors did, for tests and benches: every full read after the first is a fallback with a reason. */
export interface MirrorStats {
  patchedReads: number;
  fullReads: number;
  fallbacks: Record<FallbackReason, number>;
  dropped: number;
  /** Changes no event announced, found by comparing the cache or reading values again. */
  silentChanges: number;
}

interface Held {
  mirror: AppMirror;
  lastReadAt: number;
  lastEventAt: number;
  queue: Promise<unknown>;
}

/**
 * A mirror per observed app. A read waits for the app's events to go quiet (fresh reads only),
 * patches the mirror from them and serves a copy; when the mirror cannot be trusted it reads
 * the whole app again and counts why.
 */
export class MirrorStore {
  private readonly held = new Map<string, Held>();
  private readonly options: Required<MirrorStoreOptions>;
  private readonly stopListening: () => void;
  private readonly sweeper: ReturnType<typeof setInterval>;
  readonly stats: MirrorStats = {
    patchedReads: 0,
    fullReads: 0,
    fallbacks: {
      settling: 0,
      'unknown-node': 0,
      overflow: 0,
      scrolled: 0,
      visibility: 0,
      'failed-call': 0,
      generation: 0,
      'derived-name': 0,
      'root-changed': 0,
      'too-large': 0,
    },
    dropped: 0,
    silentChanges: 0,
  };

  constructor(
    private readonly source: EventSource,
    options: MirrorStoreOptions,
    private readonly onDrop: (bus: string) => void = () => undefined,
  ) {
    this.options = {
      now: () => performance.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      ...options,
    };
    this.stopListening = source.onTreeEvent((event) => {
      const held = this.held.get(event.bus);
      if (held === undefined) return;
      held.lastEventAt = this.options.now();
      held.mirror.apply(event);
    });
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, this.options.idleMs / 4));
    this.sweeper.unref?.();
  }

  /** Subscribes to the app's events (once) and keeps it observed; for reads the mirror does not serve. */
  async touch(bus: string): Promise<void> {
    const held = this.hold(bus);
    held.lastReadAt = this.options.now();
    await this.source.watch(bus);
  }

  /** The app's tree, from its mirror when the mirror can be trusted, from `full` otherwise. */
  async read(bus: string, reader: MirrorReader, full: FullRead, fresh: boolean): Promise<Node> {
    const held = this.hold(bus);
    held.lastReadAt = this.options.now();
    // Reads of one app take turns: a flush mutates the mirror.
    const turn = held.queue.then(() => this.serve(bus, held, reader, full, fresh));
    held.queue = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Whether a read of this app would be served from its mirror (loaded, settled, its events
   * still heard, no change waiting to be patched in) for at most `maxCheckReads` nodes read again
   * (the last patched read's count): a search over the tree then costs memory and a few calls,
   * whatever the app's size. Pending changes may cost anything up to a whole read, so they say no.
   */
  serves(bus: string, maxCheckReads: number): boolean {
    const held = this.held.get(bus);
    return (
      held !== undefined &&
      held.mirror.loaded &&
      held.mirror.settled &&
      held.mirror.clean &&
      this.source.isWatched(bus) &&
      held.mirror.checkReads <= maxCheckReads
    );
  }

  /** The app said this object is gone: its mirror, if it holds it, reads its parent again next time (AppMirror.objectGone). */
  objectGone(bus: string, path: string): void {
    this.held.get(bus)?.mirror.objectGone(path);
  }

  /** Drops mirrors not read for idleMs, so an app nobody looks at no longer sends us its events. */
  sweep(): void {
    const now = this.options.now();
    for (const [bus, held] of this.held) {
      if (now - held.lastReadAt < this.options.idleMs) continue;
      this.held.delete(bus);
      this.stats.dropped += 1;
      this.onDrop(bus);
      void this.source.unwatch(bus);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.stopListening();
    this.held.clear();
  }

  private hold(bus: string): Held {
    let held = this.held.get(bus);
    if (held === undefined) {
      held = { mirror: new AppMirror(this.options), lastReadAt: this.options.now(), lastEventAt: -Infinity, queue: Promise.resolve() };
      this.held.set(bus, held);
    }
    return held;
  }

  private async serve(bus: string, held: Held, reader: MirrorReader, full: FullRead, fresh: boolean): Promise<Node> {
    // Events sent while nobody listened are lost: a mirror that outlived its subscription is a generation behind.
    if (!this.source.isWatched(bus) && held.mirror.loaded) held.mirror.distrust('generation', 'the app was not watched for a while');
    await this.source.watch(bus);
    if (fresh) await this.quiet(bus, held);
    if (!held.mirror.loaded) return this.fullRead(held, full, reader);
    if (!held.mirror.settled) {
      this.stats.fallbacks.settling += 1;
      return this.fullRead(held, full, reader);
    }
    try {
      await held.mirror.flush(reader);
      this.stats.patchedReads += 1;
      this.stats.silentChanges += held.mirror.silentChanges;
      held.mirror.silentChanges = 0;
      return held.mirror.snapshot();
    } catch (error) {
      if (!(error instanceof MirrorUntrusted)) {
        held.mirror.reset();
        throw error;
      }
      this.stats.fallbacks[error.reason] += 1;
      return this.fullRead(held, full, reader);
    }
  }

  private async fullRead(held: Held, full: FullRead, reader: MirrorReader): Promise<Node> {
    held.mirror.reset();
    let rows: CacheRows | undefined;
    const tree = await full((read) => (rows = read));
    held.mirror.load(tree, rows);
    held.mirror.expectChecks(reader);
    this.stats.fullReads += 1;
    return held.mirror.snapshot();
  }

  /** Waits until every event the app already sent is here and it has sent none for quietMs (bounded). */
  private async quiet(bus: string, held: Held): Promise<void> {
    const { now, sleep, quietMs, maxWaitMs } = this.options;
    const started = now();
    // A gone or frozen app fails the reads that follow, with the right error; the barrier only orders.
    await this.source.barrier(bus, maxWaitMs).catch(() => undefined);
    for (;;) {
      const idle = now() - held.lastEventAt;
      const left = maxWaitMs - (now() - started);
      if (idle >= quietMs || left <= 0) return;
      await sleep(Math.min(quietMs - idle, left));
    }
  }
}

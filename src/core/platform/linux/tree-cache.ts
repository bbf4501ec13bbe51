import type { RawNode } from '../../ui/ids';
import type { BoundsMode } from '../types';
import type { AtspiRef } from './client';

interface Entry {
  tree: RawNode<AtspiRef>;
  bounds: BoundsMode;
}

const COVERAGE: Record<BoundsMode, number> = { none: 0, interactive: 1, all: 2 };

/**
 * The last tree of each app, kept until an accessibility event from that app says it
 * changed. A fetch that an event overtook is returned but not kept, so the cache never
 * holds a tree older than the newest event.
 */
export class TreeCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();

  invalidate(bus: string): void {
    this.generations.set(bus, (this.generations.get(bus) ?? 0) + 1);
    this.entries.delete(bus);
  }

  /** `fresh` skips the cached tree but still keeps the new one, so the next read is free. */
  async get(bus: string, bounds: BoundsMode, fetch: () => Promise<RawNode<AtspiRef>>, fresh = false): Promise<RawNode<AtspiRef>> {
    const cached = this.entries.get(bus);
    if (!fresh && cached !== undefined && COVERAGE[cached.bounds] >= COVERAGE[bounds]) return cached.tree;
    const generation = this.generations.get(bus) ?? 0;
    const tree = await fetch();
    if ((this.generations.get(bus) ?? 0) === generation) this.entries.set(bus, { tree, bounds });
    return tree;
  }

  clear(): void {
    this.entries.clear();
  }
}

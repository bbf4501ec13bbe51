import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import type { AtspiRef } from './client';
import { TreeCache } from './tree-cache';

const tree = (name: string): RawNode<AtspiRef> => ({
  ref: { pid: 1, bus: ':1.1', path: '/', interfaces: [], role: 75, gtk4: false },
  role: 'application',
  platformRole: 'atspi:75',
  name,
  states: { enabled: true, focused: false },
  actions: [],
});

describe('TreeCache', () => {
  it('serves a repeat from memory until an event from that app', async () => {
    const cache = new TreeCache();
    let fetches = 0;
    const fetch = () => Promise.resolve(tree(`v${++fetches}`));
    expect((await cache.get(':1.1', 'none', fetch)).name).toBe('v1');
    expect((await cache.get(':1.1', 'none', fetch)).name).toBe('v1');
    cache.invalidate(':1.2');
    expect((await cache.get(':1.1', 'none', fetch)).name).toBe('v1');
    cache.invalidate(':1.1');
    expect((await cache.get(':1.1', 'none', fetch)).name).toBe('v2');
  });

  it('does not serve a tree without bounds to a caller that wants them', async () => {
    const cache = new TreeCache();
    await cache.get(':1.1', 'none', () => Promise.resolve(tree('plain')));
    expect((await cache.get(':1.1', 'all', () => Promise.resolve(tree('with bounds')))).name).toBe('with bounds');
    expect((await cache.get(':1.1', 'none', () => Promise.resolve(tree('again')))).name).toBe('with bounds');
  });

  it('keeps a fresh fetch for the next reader', async () => {
    const cache = new TreeCache();
    await cache.get(':1.1', 'none', () => Promise.resolve(tree('old')));
    expect((await cache.get(':1.1', 'none', () => Promise.resolve(tree('fresh')), true)).name).toBe('fresh');
    expect((await cache.get(':1.1', 'none', () => Promise.resolve(tree('unused')))).name).toBe('fresh');
  });

  it('does not keep a fetch that an event overtook', async () => {
    const cache = new TreeCache();
    await cache.get(':1.1', 'none', async () => {
      cache.invalidate(':1.1');
      return tree('stale');
    });
    expect((await cache.get(':1.1', 'none', () => Promise.resolve(tree('fresh')))).name).toBe('fresh');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionEngine } from '../actions/engine';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { findById } from '../ui/tree-index';
import { RecordingEngine } from './recording-engine';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RecordingEngine', () => {
  it('records a step against the tree its id came from when its own read lags the app', async () => {
    const engine = new RecordingEngine({ platform: new FakePlatform() });
    const seen = await engine.observe(FIXTURE_PID);
    const id = findNodes(seen.root, { name: 'Enable feature', role: 'checkbox' })[0]?.node.id as string;
    // The recorder's own read before the action comes from a kept tree that does not hold the box yet.
    const stale = { ...seen, root: { ...seen.root, children: [] } };
    vi.spyOn(ActionEngine.prototype, 'observe').mockResolvedValueOnce(stale);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(result.success).toBe(true);
    expect(engine.actions).toHaveLength(1);
    expect(findById(engine.actions[0]?.treeBefore ?? seen.root, id)?.name).toBe('Enable feature');
  });

  it('keeps its own read when that read holds the target', async () => {
    const engine = new RecordingEngine({ platform: new FakePlatform() });
    const { root } = await engine.observe(FIXTURE_PID);
    const id = findNodes(root, { name: 'Enable feature', role: 'checkbox' })[0]?.node.id as string;
    await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(engine.actions[0]?.treeBefore).not.toBe(root);
    expect(findById(engine.actions[0]?.treeBefore ?? root, id)).toBeDefined();
  });
});

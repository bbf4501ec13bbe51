import { describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { ActionEngine } from './engine';

describe('ActionEngine.noteFound', () => {
  it('refuses an id a search placed on another node, instead of acting on the node the tree gives that id', async () => {
    const platform = new FakePlatform();
    const engine = new ActionEngine({ platform });
    const { root } = await engine.observe(FIXTURE_PID);
    const [button] = findNodes(root, { role: 'button' });
    const clicks = platform.app(FIXTURE_PID).get('button').name;
    // A search without a tree read said this id is "Act 3950"; the tree gives it to another button.
    engine.noteFound(FIXTURE_PID, [{ ...(button?.node as NonNullable<typeof button>['node']), name: 'Act 3950' }]);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: button?.node.id });
    expect(result.success).toBe(false);
    expect(result.error?.code).toBe('NODE_NOT_FOUND');
    expect(platform.app(FIXTURE_PID).get('button').name).toBe(clicks);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { ActionEngine } from '../../core/actions/engine';
import { FIXTURE_PID, FakePlatform } from '../../core/platform/fake/fake-platform';
import { ownText } from '../../core/ui/text';
import { AppAllowList } from '../allow-list';
import type { ToolContext } from '../context';
import { DEFAULT_MAX_CHARS } from '../options';
import { readTool } from './read';

// The real ownText, watched: ui_read must read nodes the way the agent's read_element does, not with a copy.
vi.mock('../../core/ui/text', async (original) => {
  const real = await original<{ ownText: typeof ownText }>();
  return { ownText: vi.fn(real.ownText) };
});

describe('ui_read', () => {
  it('reads each node with the shared ownText', async () => {
    const platform = new FakePlatform();
    const engine = new ActionEngine({ platform });
    const context: ToolContext = {
      core: () => Promise.resolve({ platform, engine }),
      options: { maxChars: DEFAULT_MAX_CHARS, readOnly: false, apps: undefined },
      allowList: new AppAllowList(undefined),
    };
    const { root } = await engine.observe(FIXTURE_PID);
    const result = await readTool.run(readTool.parse({ pid: FIXTURE_PID, id: root.id }), context, new AbortController().signal);
    expect(result.text).toContain('Enable feature');
    expect(vi.mocked(ownText)).toHaveBeenCalledWith(expect.objectContaining({ id: root.id }));
  });
});

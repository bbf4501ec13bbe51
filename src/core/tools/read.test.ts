import { describe, expect, it, vi } from 'vitest';
import { FIXTURE_PID } from '../platform/fake/fake-platform';
import { ownText } from '../ui/text';
import { walk } from '../ui/tree-index';
import { fakeContext } from './fake-context';
import { readTool } from './read';

// The real ownText, watched: ui_read must read nodes through the one ownText, not with a copy.
vi.mock('../ui/text', async (original) => {
  const real = await original<{ ownText: typeof ownText }>();
  return { ownText: vi.fn(real.ownText) };
});

describe('ui_read', () => {
  it('reads each node with the shared ownText', async () => {
    const context = fakeContext();
    const { root } = await context.engine.observe(FIXTURE_PID);
    const result = await readTool.handler({ pid: FIXTURE_PID, id: root.id }, context);
    expect(result.message).toContain('Enable feature');
    expect(vi.mocked(ownText)).toHaveBeenCalledWith(expect.objectContaining({ id: root.id }));
  });

  it('keeps to the program’s budget even when more is asked for', async () => {
    const context = { ...fakeContext(), maxChars: 300 };
    const { root } = await context.engine.observe(FIXTURE_PID);
    const result = await readTool.handler({ pid: FIXTURE_PID, id: root.id, maxChars: 50_000 }, context);
    expect(JSON.stringify(result.data).length).toBeLessThanOrEqual(300);
    expect(result.data).toMatchObject({ truncated: true });
  });

  it('reads the whole of a value the tree holds only the start of', async () => {
    const context = fakeContext();
    const long = 'word '.repeat(2000);
    const { accessibility } = context.platform;
    const getTree = accessibility.getTree.bind(accessibility);
    accessibility.getTree = async (pid, options) => {
      const raw = await getTree(pid, options);
      const visit = (node: typeof raw): void => {
        if (node.name === 'Name' && node.role === 'textfield') Object.assign(node, { value: long.slice(0, 4000), valueTruncated: true });
        node.children?.forEach(visit);
      };
      visit(raw);
      return raw;
    };
    accessibility.readText = async (_ref, _node, maxChars) => long.slice(0, maxChars);
    const { root } = await context.engine.observe(FIXTURE_PID, { fresh: true });
    const id = [...walk(root)].find((node) => node.name === 'Name' && node.role === 'textfield')?.id as string;
    const result = await readTool.handler({ pid: FIXTURE_PID, id, maxChars: 20_000 }, context);
    expect(result.message).toBe(`Name\n${long}`);
    expect(result.data).toMatchObject({ truncated: false });
  });
  it('pages through a long text: each cut names the offset the next page starts at, and the pages join up', async () => {
    const context = fakeContext();
    const long = Array.from({ length: 300 }, (_unused, index) => `w${index}`).join(' ');
    const { accessibility } = context.platform;
    const getTree = accessibility.getTree.bind(accessibility);
    accessibility.getTree = async (pid, options) => {
      const raw = await getTree(pid, options);
      const visit = (node: typeof raw): void => {
        if (node.name === 'Name' && node.role === 'textfield') Object.assign(node, { value: long.slice(0, 100), valueTruncated: true });
        node.children?.forEach(visit);
      };
      visit(raw);
      return raw;
    };
    accessibility.readText = async (_ref, _node, maxChars) => long.slice(0, maxChars);
    const { root } = await context.engine.observe(FIXTURE_PID, { fresh: true });
    const id = [...walk(root)].find((node) => node.name === 'Name' && node.role === 'textfield')?.id as string;
    let text = '';
    let offset: number | undefined = 0;
    for (let page = 0; page < 20 && offset !== undefined; page += 1) {
      const result = await readTool.handler({ pid: FIXTURE_PID, id, maxChars: 400, offset }, context);
      const data = result.data as { text: string; nextOffset?: number };
      text += data.nextOffset === undefined ? data.text : data.text.slice(0, 400);
      if (data.nextOffset !== undefined) expect(data.text).toContain(`read on with offset ${data.nextOffset}`);
      offset = data.nextOffset;
    }
    expect(offset).toBeUndefined();
    expect(text).toBe(`Name\n${long}`);
  });
});

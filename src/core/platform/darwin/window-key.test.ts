import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import type { RawNode } from '../../ui/ids';
import { harness } from './testing/setup';
import { sampleApp, type FakeApp, type FakeNode } from './testing/fake-world';
import type { MacRef } from './tree-walk';

/** A TextEdit-like document window: the same shape for every document, only the title and frame differ. */
function documentWindow(title: string, x: number, text: string): FakeNode {
  return {
    role: 'AXWindow',
    subrole: 'AXStandardWindow',
    title,
    position: { x, y: 50 },
    size: { width: 600, height: 400 },
    children: [{ role: 'AXTextArea', value: text, actions: [], settable: ['AXValue', 'AXFocused', 'AXSelectedTextRange'] }],
  };
}

function twoDocuments(): { app: FakeApp; first: FakeNode; second: FakeNode } {
  const first = documentWindow('Letter', 100, 'Dear Ada');
  const second = documentWindow('Invoice', 130, 'Total');
  return { app: { ...sampleApp(), name: 'TextEdit', windows: [first, second] }, first, second };
}

const areaOf = (window: FakeNode): FakeNode => (window.children ?? [])[0] as FakeNode;

describe('darwin window identity (issue 29, point 6)', () => {
  it('refs carry the key of their window: AXIdentifier when set, else the title and the frame', async () => {
    const { app } = twoDocuments();
    (app.windows[0] as FakeNode).identifier = 'doc-1';
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    const refs = (tree.children ?? []).map((window) => [(window.ref as MacRef).window, (window.children?.[0]?.ref as MacRef).window]);
    expect(refs).toEqual([
      [
        { identifier: 'doc-1', title: 'Letter', frame: { x: 100, y: 50, width: 600, height: 400 } },
        { identifier: 'doc-1', title: 'Letter', frame: { x: 100, y: 50, width: 600, height: 400 } },
      ],
      [
        { title: 'Invoice', frame: { x: 130, y: 50, width: 600, height: 400 } },
        { title: 'Invoice', frame: { x: 130, y: 50, width: 600, height: 400 } },
      ],
    ]);
    await test.finish();
  });

  it('after a raise reorders AXWindows, an action on a ref read before it still lands in its own document', async () => {
    const { app, first, second } = twoDocuments();
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    const letter = tree.children?.[0]?.children?.[0] as RawNode;
    // The user (or an earlier action) brings the invoice to the front: it is AXWindows[0] now.
    app.windows.reverse();
    await test.platform.accessibility.setValue(letter.ref, { ...letter, id: 'x', children: [] } as UiNode, 'Dear Grace');
    expect(areaOf(first).value).toBe('Dear Grace');
    expect(areaOf(second).value).toBe('Total');
    await test.finish();
  });

  it('a window renamed since the read (a title gaining "Edited") is still found by its frame', async () => {
    const { app, first } = twoDocuments();
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    const letter = tree.children?.[0]?.children?.[0] as RawNode;
    first.title = 'Letter — Edited';
    app.windows.reverse();
    expect(await test.platform.accessibility.readSubtree?.(letter.ref, {} as UiNode, 5)).toMatchObject({ value: 'Dear Ada' });
    await test.finish();
  });

  it('a window that closed is NODE_NOT_FOUND with reason STALE_ID, and nothing acts on the window that took its place', async () => {
    const { app, second } = twoDocuments();
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    const letter = tree.children?.[0]?.children?.[0] as RawNode;
    app.windows.shift();
    await expect(test.platform.accessibility.setValue(letter.ref, { ...letter, id: 'x', children: [] } as UiNode, 'Dear Grace')).rejects.toMatchObject({
      code: 'NODE_NOT_FOUND',
      data: { reason: 'STALE_ID' },
    });
    expect(areaOf(second).value).toBe('Total');
    expect(areaOf(second).log).toBeUndefined();
    await test.finish();
  });

  it('two windows that cannot be told apart are refused, never guessed', async () => {
    const twin = (): FakeNode => documentWindow('Untitled', 100, 'same');
    const app = { ...sampleApp(), windows: [twin(), twin()] };
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 30 });
    await expect(test.platform.accessibility.bounds?.(tree.children?.[1]?.children?.[0]?.ref, {} as UiNode)).rejects.toMatchObject({
      data: { reason: 'STALE_ID' },
    });
    await test.finish();
  });

  it('key: the window of the element about to be focused is raised, not the one of the previous action', async () => {
    const { app, first, second } = twoDocuments();
    const test = await harness([app], { focusedPid: 501 });
    const engine = new ActionEngine({ platform: test.platform, clock: new FakeClock() });
    const tree = await engine.observe(501);
    const [letter, invoice] = (tree.root.children ?? []).map((window) => window.children?.[0] as UiNode);
    await engine.run(501, { action: 'set_value', id: letter?.id, value: 'Dear Grace', settleMs: 0 });
    first.log = [];
    const result = await engine.run(501, { action: 'key', id: invoice?.id, key: 'a', modifiers: ['meta'], settleMs: 0 });
    expect(result.error).toBeUndefined();
    expect(second.log).toEqual(['set AXMain true', 'perform AXRaise']);
    expect(first.log).toEqual([]);
    expect(areaOf(second).focused).toBe(true);
    await test.finish();
  });
});

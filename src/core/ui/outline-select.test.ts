import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { serializeTree } from './serialize';
import { estimateTokens } from './token-estimate';

function node(id: string, role: UiNode['role'], name: string, extra: Partial<UiNode> = {}): UiNode {
  return { id, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], ...extra };
}

/** A long page: sections of a heading, a form and a table of many rows, as web reports are. */
function page(sections: number, rows: number): UiNode {
  return node('doc', 'document', 'Report', {
    children: Array.from({ length: sections }, (_unused, s) =>
      node(`sec${s}`, 'group', `Part ${s} section`, {
        children: [
          node(`h${s}`, 'heading', `Part ${s}`),
          node(`t${s}`, 'table', '', {
            children: Array.from({ length: rows }, (_unused2, r) =>
              node(`r${s}-${r}`, 'row', '', { children: [node(`c${s}-${r}`, 'cell', `Row ${s}.${r}`), node(`b${s}-${r}`, 'button', `Act ${s}.${r}`)] }),
            ),
          }),
          node(`f${s}`, 'group', `Part ${s} filter`, { children: [node(`e${s}`, 'textfield', `Filter ${s}`)] }),
        ],
      }),
    ),
  });
}

describe('outline first when a tree does not fit', () => {
  it('names every heading and region of a page far over budget, before any table row past the first few', () => {
    const text = serializeTree(page(30, 200), { maxTokens: 2000, style: 'compact' });
    expect(estimateTokens(text)).toBeLessThanOrEqual(2000);
    for (let s = 0; s < 30; s += 1) {
      expect(text).toContain(`h${s} heading Part ${s}`);
      expect(text).toContain(`sec${s} group Part ${s} section`);
      expect(text).toContain(`f${s} group Part ${s} filter`);
      // Every table says what it holds and where to ask for it.
      expect(text).toMatch(new RegExp(`… truncated: \\d+ more under t${s}\\b`));
    }
  });

  it('keeps document order and puts each note after its last kept line', () => {
    const lines = serializeTree(page(2, 50), { maxTokens: 400 }).split('\n');
    const at = (prefix: string): number => lines.findIndex((line) => line.trimStart().startsWith(prefix));
    expect(at('[sec0]')).toBeLessThan(at('[h0]'));
    expect(at('[h0]')).toBeLessThan(at('[sec1]'));
    expect(at('… truncated: ')).toBeGreaterThan(at('[t0]'));
    expect(at('… truncated: ')).toBeLessThan(at('[f0]'));
  });

  it('brings in the focused node and the lines above it', () => {
    const tree = page(3, 100);
    const deep = tree.children?.[2]?.children?.[1]?.children?.[90]?.children?.[1] as UiNode;
    deep.states = { enabled: true, focused: true };
    const text = serializeTree(tree, { maxTokens: 500 });
    expect(text).toContain('[b2-90] button "Act 2.90" (focused)');
    expect(text).toContain('[r2-90] row');
  });

  it('counts the children a budgeted read left unread, under the nearest printed line', () => {
    const wrapper = node('wrap', 'group', '', { childCount: 40, children: [node('x', 'button', 'First')] });
    const tree = node('w', 'window', 'App', {
      children: [node('lst', 'list', 'Items', { childCount: 500, children: [node('i', 'listitem', 'One')] }), wrapper],
    });
    expect(serializeTree(tree).split('\n')).toEqual([
      '[w] window "App"',
      '  [lst] list "Items"',
      '    [i] listitem "One"',
      '    … truncated: 499 more under lst',
      '  [x] button "First"',
      '  … truncated: 39 more under w',
    ]);
  });

  it("keeps a shown page's content scrolled out of view, and leaves a background tab's page out", () => {
    const off = { enabled: true, focused: false, visible: false };
    const shown = node('d1', 'document', 'Report', {
      children: [node('h1', 'heading', 'On screen'), node('h2', 'heading', 'Scrolled below', { states: off })],
    });
    const background = node('d2', 'document', 'Problem loading page', { states: off, children: [node('h3', 'heading', 'Hmm. We can’t reach this page')] });
    const text = serializeTree(node('w', 'window', 'Browser', { children: [shown, background] }));
    expect(text).toContain('Scrolled below');
    expect(text).not.toContain('Problem loading page');
    expect(text).not.toContain('reach this page');
  });

  it('leaves hidden pages out', () => {
    const hidden = node('p2', 'tabpanel', 'Background tab', {
      states: { enabled: true, focused: false, visible: false },
      children: [node('h', 'heading', 'Problem loading page')],
    });
    const text = serializeTree(node('w', 'window', 'Browser', { children: [node('p1', 'tabpanel', 'Shown tab'), hidden] }));
    expect(text).not.toContain('Background tab');
    expect(text).not.toContain('Problem loading page');
  });
});

import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import { formatNode, serializeTree } from './serialize';
import { estimateTokens } from './token-estimate';

function node(id: string, role: UiNode['role'], name: string, extra: Partial<UiNode> = {}): UiNode {
  return { id, role, platformRole: role, name, states: { enabled: true, focused: false }, actions: [], ...extra };
}

const list = (count: number): UiNode =>
  node('lst', 'list', 'Items', {
    children: Array.from({ length: count }, (_unused, index) => node(`i${index}`, 'listitem', `Item ${index + 1}`)),
  });

describe('formatNode', () => {
  it('prints id, role, name, value and the states that matter', () => {
    const field = node('a1', 'textfield', 'Name', { value: 'Ada', states: { enabled: true, focused: true, editable: true } });
    expect(formatNode(field)).toBe('[a1] textfield "Name" = "Ada" (focused)');
    const box = node('c1', 'checkbox', 'Bold', { states: { enabled: false, focused: false, checked: true } });
    expect(formatNode(box)).toBe('[c1] checkbox "Bold" (disabled, checked)');
    expect(formatNode(node('s1', 'slider', 'Volume', { value: 40 }))).toBe('[s1] slider "Volume" = 40');
  });

  it('prints compact lines for the agent: a bare id, and a name quoted only where it could be misread', () => {
    const field = node('kqxza', 'textfield', 'Name', { value: 'Ada', states: { enabled: true, focused: true, editable: true } });
    expect(formatNode(field, undefined, [], 'compact')).toBe('kqxza textfield Name = "Ada" (focused)');
    const tree = node('wabcd', 'window', 'App – Untitled 1', { children: [node('babcd', 'button', 'OK')] });
    expect(serializeTree(tree, { style: 'compact' })).toBe('wabcd window App – Untitled 1\n  babcd button OK');
    const misread = ['Size = 12', 'Total (EUR)', 'Say "hi"', ' padded', 'two\nlines', '[x]', 'Name label Other', '@home', '…'];
    for (const name of misread) expect(formatNode(node('aaaaa', 'label', name), undefined, [], 'compact')).toBe(`aaaaa label ${JSON.stringify(name)}`);
    expect(formatNode(node('aaaaa', 'label', 'x'.repeat(130)), undefined, [], 'compact')).toBe(`aaaaa label "${'x'.repeat(120)}…"`);
  });

  it("leaves an app's own line out of compact lines, and still notes a top-level cut under its id", () => {
    const windows = Array.from({ length: 30 }, (_unused, index) =>
      node(`w${'abcdefghijklmnopqrstuvwxyz'[index % 26]}x${'yz'[Math.floor(index / 26)]}z`, 'window', `Window ${index}`),
    );
    const app = node('aaaaa', 'application', 'Editor', { children: windows.slice(0, 2) });
    expect(serializeTree(app, { style: 'compact' })).toBe('waxyz window Window 0\nwbxyz window Window 1');
    expect(serializeTree(app)).toBe('[aaaaa] application "Editor"\n  [waxyz] window "Window 0"\n  [wbxyz] window "Window 1"');
    const cut = serializeTree(node('aaaaa', 'application', 'Editor', { children: windows }), { style: 'compact', maxNodes: 4 });
    expect(cut.split('\n')).toEqual([
      'waxyz window Window 0',
      'wbxyz window Window 1',
      'wcxyz window Window 2',
      'wdxyz window Window 3',
      '… truncated: 26 more under aaaaa',
    ]);
    // A subtree's root is printed as always.
    expect(serializeTree(windows[0] as UiNode, { style: 'compact' })).toBe('waxyz window Window 0');
  });

  it('leaves unchecked implied for checkable roles in compact lines, and only there', () => {
    const off = { enabled: true, focused: false, checked: false };
    expect(formatNode(node('aaaaa', 'checkbox', 'Bold', { states: off }), undefined, [], 'compact')).toBe('aaaaa checkbox Bold');
    expect(formatNode(node('aaaaa', 'radio', 'Left', { states: { ...off, checked: true } }), undefined, [], 'compact')).toBe('aaaaa radio Left (checked)');
    // A menu item or a cell may or may not be checkable: its unchecked state is news.
    expect(formatNode(node('aaaaa', 'menuitem', 'Wrap', { states: off }), undefined, [], 'compact')).toBe('aaaaa menuitem Wrap (unchecked)');
    expect(formatNode(node('aaaaa', 'checkbox', 'Bold', { states: off }))).toBe('[aaaaa] checkbox "Bold" (unchecked)');
  });

  it('never prints the value of a secret field', () => {
    const secret = node('p1', 'textfield', 'Password', { value: 'hunter2', states: { enabled: true, focused: false, secret: true } });
    expect(formatNode(secret)).toBe('[p1] textfield "Password" (secret)');
  });

  it('cuts long text and escapes quotes', () => {
    const long = node('d1', 'document', 'Doc', { value: `say "hi" ${'x'.repeat(200)}` });
    const line = formatNode(long, 20);
    expect(line).toContain('= "say \\"hi\\" xxxxxxxxxxx…"');
  });
});

describe('serializeTree', () => {
  it('indents one line per node and collapses unnamed containers', () => {
    const tree = node('w', 'window', 'App', {
      children: [node('g', 'group', '', { children: [node('b', 'button', 'OK')] }), node('g2', 'group', 'Options')],
    });
    expect(serializeTree(tree)).toBe(['[w] window "App"', '  [b] button "OK"', '  [g2] group "Options"'].join('\n'));
  });

  it('drops nodes that are not showing, with their subtrees', () => {
    const tree = node('w', 'window', 'App', {
      children: [
        node('h', 'group', 'Hidden', { states: { enabled: true, focused: false, visible: false }, children: [node('x', 'button', 'X')] }),
        node('b', 'button', 'OK'),
      ],
    });
    expect(serializeTree(tree)).toBe('[w] window "App"\n  [b] button "OK"');
  });

  it('skips nodes with empty bounds but keeps their showing children', () => {
    const zero = { x: 0, y: 0, width: 0, height: 0 };
    const tree = node('w', 'window', 'App', {
      children: [
        node('p', 'group', 'Hidden page', {
          bounds: zero,
          children: [node('hb', 'button', 'Off', { bounds: zero }), node('b', 'button', 'On', { bounds: { x: 1, y: 1, width: 9, height: 9 } })],
        }),
      ],
    });
    expect(serializeTree(tree)).toBe('[w] window "App"\n  [b] button "On"');
  });

  it('folds text inside a control into its line and drops text repeating its name', () => {
    const tree = node('w', 'window', 'App', {
      children: [
        node('b', 'button', 'GtkButton', { children: [node('l', 'label', 'Nick')] }),
        node('c', 'checkbox', 'Bold', { states: { enabled: true, focused: false, checked: true }, children: [node('cl', 'label', 'Bold')] }),
        node('s', 'label', 'Status', { children: [node('sl', 'label', 'Status')] }),
      ],
    });
    expect(serializeTree(tree).split('\n')).toEqual([
      '[w] window "App"',
      '  [b] button "GtkButton" label "Nick"',
      '  [c] checkbox "Bold" (checked)',
      '  [s] label "Status"',
    ]);
  });

  it('does not print toolkit class names of containers and non-controls, but keeps them on controls', () => {
    const tree = node('w', 'window', 'App', {
      children: [node('g', 'group', 'GtkBuiltinIcon'), node('i', 'image', 'GtkPicture'), node('t', 'button', 'GtkToggleButton'), node('o', 'group', 'Options')],
    });
    expect(serializeTree(tree).split('\n')).toEqual(['[w] window "App"', '  [i] image', '  [t] button "GtkToggleButton"', '  [o] group "Options"']);
  });

  it('collapses unnamed menu bars, tab lists and toolbars, and does not call a spin button editable', () => {
    const spin = node('sp', 'spinbutton', 'Copies', { value: 2, states: { enabled: true, focused: false, editable: true } });
    const tree = node('w', 'window', 'App', {
      children: [node('mb', 'menubar', '', { children: [node('f', 'menu', 'File')] }), node('tl', 'tablist', 'Pages'), spin],
    });
    expect(serializeTree(tree).split('\n')).toEqual(['[w] window "App"', '  [f] menu "File"', '  [tl] tablist "Pages"', '  [sp] spinbutton "Copies" = 2']);
  });

  it('cuts at a node budget breadth first, and says how much is left under which id', () => {
    const tree = node('w', 'window', 'App', { children: [list(10), node('ok', 'button', 'OK')] });
    const text = serializeTree(tree, { maxNodes: 4 });
    // The button beside the list comes before the list's second item: a depth-first cut would hide it.
    expect(text.split('\n')).toEqual([
      '[w] window "App"',
      '  [lst] list "Items"',
      '    [i0] listitem "Item 1"',
      '    … truncated: 9 more under lst',
      '  [ok] button "OK"',
    ]);
  });

  it('cuts at a token budget', () => {
    const text = serializeTree(node('w', 'window', 'App', { children: [list(500)] }), { maxTokens: 200 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    expect(text).toMatch(/… truncated: \d+ more under lst$/);
  });

  it('counts the truncation lines in the token budget, whatever the budget', () => {
    // Nested sections, so a cut leaves notes at several depths.
    const section = (path: string, depth: number): UiNode =>
      node(`s${path}`, 'group', `Section ${path}`, {
        children: [
          ...Array.from({ length: 12 }, (_unused, index) => node(`b${path}-${index}`, 'button', `Action ${index} of section ${path}`)),
          ...(depth < 3 ? Array.from({ length: 3 }, (_unused, index) => section(`${path}.${index}`, depth + 1)) : []),
        ],
      });
    const tree = node('w', 'window', 'App', { children: [section('1', 0), section('2', 0)] });
    for (const style of ['full', 'compact'] as const) {
      for (const maxTokens of [30, 60, 150, 400, 1000, 2500, 6000]) {
        const text = serializeTree(tree, { maxTokens, maxNodes: Number.POSITIVE_INFINITY, style });
        expect(text, `${style} ${maxTokens}`).toContain('truncated');
        expect(estimateTokens(text), `${style} ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
      }
    }
  });

  it('prints everything when it fits', () => {
    const text = serializeTree(node('w', 'window', 'App', { children: [list(3)] }));
    expect(text).not.toContain('truncated');
    expect(text.split('\n')).toHaveLength(5);
  });
});

describe('labels and their fields', () => {
  const form = node('w', 'window', 'Sign up', {
    children: [
      node('g', 'group', '', {
        children: [
          node('f2', 'textfield', 'City', { nameFrom: 'label' }),
          node('l2', 'label', 'City'),
          node('f1', 'textfield', 'Name', { nameFrom: 'label', value: 'Ada' }),
          node('l1', 'label', 'Name'),
          node('f3', 'textfield', 'Phone', { nameFrom: 'geometry' }),
          node('l3', 'label', 'Phone'),
          node('f4', 'textfield', '', { placeholder: 'Search the docs' }),
          node('l4', 'label', 'Fill in every field'),
        ],
      }),
      node('p', 'group', 'Elsewhere', { children: [node('l5', 'label', 'City')] }),
    ],
  });

  it("prints a label that named a field only as that field's name, in the app's own order", () => {
    const text = serializeTree(form);
    expect(text.split('\n').map((line) => line.trim())).toEqual([
      '[w] window "Sign up"',
      '[f2] textfield "City"',
      '[f1] textfield "Name" = "Ada"',
      '[f3] textfield "Phone" (name guessed)',
      '[f4] textfield placeholder "Search the docs"',
      '[l4] label "Fill in every field"',
      '[p] group "Elsewhere"',
      '[l5] label "City"',
    ]);
  });

  it('shows a placeholder only while the field is empty', () => {
    expect(formatNode(node('f', 'textfield', 'Search', { placeholder: 'Search the docs', value: 'koffi' }))).toBe('[f] textfield "Search" = "koffi"');
  });
});

describe('what the text says it left out', () => {
  it('counts the rows of a list that are not showing instead of dropping them silently', () => {
    const rows = Array.from({ length: 200 }, (_unused, index) =>
      node(`r${index}`, 'listitem', `Row ${index + 1}`, { states: { enabled: true, focused: false, visible: index < 3 } }),
    );
    const text = serializeTree(node('w', 'window', 'App', { children: [node('l', 'list', 'Rows', { children: rows })] }));
    expect(text.split('\n').slice(-2)).toEqual(['    [r2] listitem "Row 3"', '    … 197 more items not showing; scroll to see them']);
  });

  it('prints screen rectangles when asked', () => {
    const button = node('b', 'button', 'OK', { bounds: { x: 12, y: 40, width: 80, height: 24 } });
    expect(serializeTree(button, { bounds: true })).toBe('[b] button "OK" @12,40 80x24');
    expect(serializeTree(button)).toBe('[b] button "OK"');
  });
});

describe('document content', () => {
  it("gives a paragraph's text room on its line, and leaves empty sheet cells to find", () => {
    const paragraph = node('p1', 'text', '', { value: 'word '.repeat(100).trim() });
    expect(formatNode(paragraph, 20)).toContain(`= "${'word '.repeat(100).trim()}"`);
    const sheet = node('t1', 'table', 'Sheet1', {
      children: [
        node('c1', 'cell', 'A1', { value: 'Quarterly' }),
        node('c2', 'cell', 'B1'),
        node('c3', 'cell', 'C1', { states: { enabled: true, focused: true } }),
      ],
    });
    const text = serializeTree(sheet);
    expect(text).toContain('cell "A1" = "Quarterly"');
    expect(text).not.toContain('"B1"');
    expect(text).toContain('cell "C1" (focused)');
  });
});

import { describe, expect, it } from 'vitest';
import type { Role } from '../../shared/ui-node';
import { buildTree, type RawNode } from '../ui/ids';
import { serializeTree } from '../ui/serialize';
import { estimateTokens } from '../ui/token-estimate';
import { readChildrenOf } from './fake/tree-children';
import { readOutline } from './outline-read';
import type { AccessibilityBackend, ChildRequest } from './types';

let refs = 0;
function raw(role: Role, name: string, children?: RawNode[], focused = false): RawNode {
  refs += 1;
  return { ref: `n${refs}`, role, platformRole: role, name, states: { enabled: true, focused }, actions: [], ...(children === undefined ? {} : { children }) };
}

/**
 * A page of about `nodes` nodes: named sections of a heading, a filter form and a table of rows
 * with buttons; the button of row `focusRow` in the last section has the focus (or the form's field).
 */
function page(nodes: number, focus: 'row' | 'field' | 'document'): { root: RawNode; section: number; row: number } {
  const sections = Math.max(2, Math.round(nodes / 600));
  const rows = Math.max(8, Math.round((nodes - sections * 6) / sections / 5));
  const row = rows - 20;
  const parts: RawNode[] = [];
  for (let s = 1; s <= sections; s += 1) {
    const last = s === sections;
    const table = raw(
      'table',
      '',
      Array.from({ length: rows }, (_unused, r) =>
        raw('row', '', [raw('cell', `Row ${s}.${r}`), raw('cell', '', [raw('button', `Act ${s}.${r}`, undefined, last && focus === 'row' && r === row)])]),
      ),
    );
    const form = raw('group', `Part ${s} filter`, [raw('textfield', `Filter part ${s}`, undefined, last && focus === 'field'), raw('button', `Apply ${s}`)]);
    parts.push(raw('group', `Part ${s} section`, [raw('heading', `Part ${s}`), form, raw('group', '', [table])]));
  }
  // A page whose document has the focus, with many paragraphs right under it, as a long article's is.
  const paragraphs = focus === 'document' ? Array.from({ length: 300 }, (_unused, index) => raw('text', `Paragraph ${index} of the article`)) : [];
  const document = raw(
    'document',
    'Report',
    [raw('group', 'Site header', [raw('heading', 'Report')]), ...paragraphs, raw('group', 'Report body', parts)],
    focus === 'document',
  );
  return {
    root: raw('application', 'Browser', [raw('window', 'Report - Browser', [raw('toolbar', 'Navigation', [raw('button', 'Back')]), document])]),
    section: sections,
    row,
  };
}

/** The indices from the root down to the focused node, as a platform's focusPath gives them. */
function pathToFocus(root: RawNode): number[] | undefined {
  const visit = (node: RawNode, path: number[]): number[] | undefined => {
    if (node.states.focused) return path;
    for (const [index, child] of (node.children ?? []).entries()) {
      const found = visit(child, [...path, index]);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(root, []);
}

/** Reads `root` on demand, counting reads and calls; with focusPath when `focus` is set. */
function onDemand(root: RawNode, focus: boolean): { accessibility: AccessibilityBackend; reads: () => number; calls: () => number } {
  let reads = 0;
  let calls = 0;
  const accessibility = {
    readChildren: (_pid: number, requests: readonly ChildRequest[]) => {
      calls += 1;
      const answer = readChildrenOf(root, requests);
      reads += answer.reduce((sum, list) => sum + list.length, 0);
      return Promise.resolve(answer);
    },
    ...(focus ? { focusPath: () => Promise.resolve(pathToFocus(root)) } : {}),
  } as unknown as AccessibilityBackend;
  return { accessibility, reads: () => reads, calls: () => calls };
}

const BUDGET = { maxReads: 1000, maxTokens: 6000 };

async function compact(root: RawNode, focus: boolean): Promise<{ text: string; reads: number; calls: number }> {
  const platform = onDemand(root, focus);
  const read = await readOutline(platform.accessibility, 1, BUDGET);
  return { text: serializeTree(buildTree(read?.root as RawNode).root, { style: 'compact' }), reads: platform.reads(), calls: platform.calls() };
}

describe('readOutline: the focused region', () => {
  it('names the focused button deep in a 20,000-node page, the rows beside it and their ancestors, within the budget', async () => {
    const { root, section, row } = page(20_000, 'row');
    const without = await compact(root, false);
    expect(without.text).not.toContain(`Act ${section}.${row}`);
    const { text, reads } = await compact(root, true);
    expect(reads).toBeLessThanOrEqual(BUDGET.maxReads + 1);
    expect(estimateTokens(text)).toBeLessThanOrEqual(BUDGET.maxTokens);
    expect(text, text.slice(-3000)).toMatch(new RegExp(`^ *[a-z]{5} button Act ${section}\\.${row} \\(focused\\)`, 'm'));
    for (let near = row - 3; near <= row + 3; near += 1) expect(text).toContain(`Act ${section}.${near}`);
    expect(text).toContain(`Part ${section} section`);
    // The outline is still whole: every section's heading.
    for (let s = 1; s <= section; s += 1) expect(text).toMatch(new RegExp(`heading Part ${s}$`, 'm'));
  });

  it('names the form that holds a focused field, with its other controls', async () => {
    const { root, section } = page(20_000, 'field');
    const { text } = await compact(root, true);
    expect(text).toMatch(new RegExp(`textfield Filter part ${section} \\(focused\\)`));
    expect(text).toContain(`button Apply ${section}`);
    expect(text).toContain(`group Part ${section} filter`);
  });

  it('costs reads and calls that stay flat in the page size', async () => {
    const small = await compact(page(2_000, 'row').root, true);
    const large = await compact(page(20_000, 'row').root, true);
    expect(large.reads).toBeLessThanOrEqual(BUDGET.maxReads + 1);
    expect(large.calls).toBeLessThanOrEqual(small.calls * 2);
    expect(large.calls).toBeLessThan(60);
  });

  it('gives the focused region the ids a whole read gives', async () => {
    const { root, section, row } = page(8_000, 'row');
    const { text } = await compact(root, true);
    const whole = serializeTree(buildTree(root).root, { style: 'compact', maxTokens: 10_000_000, maxNodes: 10_000_000 });
    for (const name of [`Act ${section}.${row}`, `Act ${section}.${row + 2}`, `Row ${section}.${row - 1}`]) {
      const line = new RegExp(`([a-z]{5}) [a-z]+ ${name.replace('.', '\\.')}( |$)`, 'm');
      expect(line.exec(text)?.[1], name).toBe(line.exec(whole)?.[1]);
    }
  });

  it('marks no region where the focus rests on the page itself: the compact text is the one without focus', async () => {
    const { root, section } = page(20_000, 'document');
    const { text } = await compact(root, true);
    expect(text).toBe((await compact(root, false)).text);
    for (let s = 1; s <= section; s += 1) expect(text).toMatch(new RegExp(`heading Part ${s}$`, 'm'));
  });

  it('gives up the way to a focus too far down one long list, and still reads within the budget', async () => {
    const items = Array.from({ length: 5_000 }, (_unused, index) => raw('listitem', `Item ${index}`, undefined, index === 4_900));
    const root = raw('application', 'App', [raw('window', 'App', [raw('heading', 'Top'), raw('list', 'Long', items)])]);
    const { text, reads } = await compact(root, true);
    expect(reads).toBeLessThanOrEqual(BUDGET.maxReads + 1);
    expect(text).toContain('heading Top');
  });
});

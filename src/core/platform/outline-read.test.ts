import { describe, expect, it } from 'vitest';
import type { Role, UiNode } from '../../shared/ui-node';
import { ActionEngine } from '../actions/engine';
import { buildTree, type RawNode } from '../ui/ids';
import { serializeTree } from '../ui/serialize';
import { estimateTokens } from '../ui/token-estimate';
import { readChildrenOf } from './fake/tree-children';
import { readOutline } from './outline-read';
import type { AccessibilityBackend, ChildRequest, Platform } from './types';

let refs = 0;
function raw(role: Role, name: string, children?: RawNode[], extra: Partial<RawNode> = {}): RawNode {
  refs += 1;
  return {
    ref: `n${refs}`,
    role,
    platformRole: role,
    name,
    states: { enabled: true, focused: false },
    actions: [],
    ...(children === undefined ? {} : { children }),
    ...extra,
  };
}

/** A web page of about `nodes` nodes, shaped as bench/pages/generate-page.ts makes them: sections grow slowly, tables grow. */
function page(nodes: number): { root: RawNode; headings: string[]; regions: string[] } {
  const sections = Math.min(24, Math.max(2, Math.round(nodes / 800)));
  const rows = Math.max(1, Math.round((nodes - 30 - sections * 9) / sections / 5));
  const headings = ['Generated report'];
  const regions = ['Site header', 'Site navigation', 'Report body'];
  const parts: RawNode[] = [];
  for (let s = 1; s <= sections; s += 1) {
    headings.push(`Part ${s}`);
    regions.push(`Part ${s} section`, `Part ${s} filter`);
    const table = raw(
      'table',
      '',
      Array.from({ length: rows }, (_unused, r) =>
        raw('row', '', [raw('cell', `Row ${s}.${r}`), raw('cell', `${r}`), raw('cell', '', [raw('button', `Act ${s}.${r}`)])]),
      ),
    );
    const form = raw('group', `Part ${s} filter`, [raw('textfield', `Filter part ${s}`), raw('button', `Apply ${s}`)]);
    // An unnamed wrapper, as pages nest divs: it is read through, not printed.
    parts.push(
      raw('group', `Part ${s} section`, [
        raw('heading', `Part ${s}`),
        raw('text', '', [], { value: `Part ${s} lists rows.` }),
        form,
        raw('group', '', [table]),
      ]),
    );
  }
  const document = raw('document', 'Generated report', [
    raw('group', 'Site header', [raw('heading', 'Generated report')]),
    raw('group', 'Site navigation', [raw('list', '', [raw('listitem', '', [raw('link', 'Part 1')])])]),
    raw('group', 'Report body', parts),
  ]);
  const root = raw('application', 'Browser', [raw('window', 'Generated report - Browser', [raw('toolbar', 'Navigation', [raw('button', 'Back')]), document])]);
  return { root, headings, regions };
}

/** A platform that reads `root` on demand and counts its calls and reads. */
function onDemand(root: RawNode): { accessibility: AccessibilityBackend; calls: () => number; reads: () => number } {
  let calls = 0;
  let reads = 0;
  const accessibility = {
    getTree: () => Promise.resolve(root),
    readChildren: (_pid: number, requests: readonly ChildRequest[]) => {
      calls += 1;
      const answer = readChildrenOf(root, requests);
      reads += answer.reduce((sum, list) => sum + list.length, 0);
      return Promise.resolve(answer);
    },
  } as unknown as AccessibilityBackend;
  return { accessibility, calls: () => calls, reads: () => reads };
}

function engineOver(accessibility: AccessibilityBackend): ActionEngine {
  return new ActionEngine({ platform: { name: 'fake', accessibility } as unknown as Platform });
}

function idsByRef(root: UiNode, refsById: Map<string, unknown>): Map<unknown, string> {
  const found = new Map<unknown, string>();
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as UiNode;
    found.set(refsById.get(node.id), node.id);
    stack.push(...(node.children ?? []));
  }
  return found;
}

describe('readOutline', () => {
  it('reads no more than its budget, in a number of calls that does not grow with the page', async () => {
    const counts: number[] = [];
    for (const size of [2_000, 20_000, 100_000]) {
      const platform = onDemand(page(size).root);
      const read = await readOutline(platform.accessibility, 1, { maxReads: 600 });
      expect(read?.reads).toBeLessThanOrEqual(601);
      expect(platform.reads()).toBe(read?.reads);
      counts.push(platform.calls());
    }
    const [small, middle, large] = counts as [number, number, number];
    expect(middle).toBeLessThanOrEqual(small * 2);
    expect(large).toBeLessThanOrEqual(middle + 2);
    expect(large).toBeLessThan(60);
  });

  it('reads the outline first: every heading and named region of a 20,000-node page, in the compact text too', async () => {
    const { root, headings, regions } = page(20_000);
    const read = await readOutline(onDemand(root).accessibility, 1, { maxReads: 1000 });
    const text = serializeTree(buildTree(read?.root as RawNode).root, { style: 'compact' });
    expect(estimateTokens(text)).toBeLessThanOrEqual(6000);
    for (const heading of headings) expect(text).toMatch(new RegExp(`^ *[a-z]{5} heading ${heading}$`, 'm'));
    for (const region of regions) expect(text).toMatch(new RegExp(`^ *[a-z]{5} group ${region}$`, 'm'));
    // Tables show a few rows and say how many more there are, under an id.
    expect(text).toMatch(/… truncated: \d+ more under [a-z]{5}/);
  });

  it('gives every node read the id a whole read gives it', async () => {
    const { root } = page(5_000);
    const read = await readOutline(onDemand(root).accessibility, 1, { maxReads: 700 });
    const partial = buildTree(read?.root as RawNode);
    const whole = buildTree(root);
    const wholeIds = idsByRef(whole.root, whole.refs);
    for (const [ref, id] of idsByRef(partial.root, partial.refs)) expect(wholeIds.get(ref)).toBe(id);
  });

  it('leaves the children of a hidden page unread', async () => {
    const hidden = raw('tabpanel', 'Background tab', [raw('heading', 'Problem loading page')], { states: { enabled: true, focused: false, visible: false } });
    const root = raw('application', 'Browser', [raw('window', 'Browser', [raw('tabpanel', 'Shown tab', [raw('heading', 'Welcome')]), hidden])]);
    const read = await readOutline(onDemand(root).accessibility, 1, { maxReads: 100 });
    expect(read?.reads).toBe(5);
    const text = serializeTree(buildTree(read?.root as RawNode).root);
    expect(text).toContain('Welcome');
    expect(text).not.toContain('Background tab');
  });

  it('reads what is on screen before what is scrolled out of view, and the outline wherever it sits', async () => {
    const offScreen = { enabled: true, focused: false, visible: false };
    const rows = (prefix: string, shown: boolean): RawNode[] =>
      Array.from({ length: 40 }, (_unused, index) =>
        raw('row', '', [raw('cell', `${prefix} ${index}`, undefined, shown ? {} : { states: offScreen })], shown ? {} : { states: offScreen }),
      );
    const below = raw('table', '', rows('Below', false), { states: offScreen });
    const above = raw('table', '', rows('Shown', true));
    const document = raw('document', 'Page', [below, raw('heading', 'Far heading', undefined, { states: offScreen }), above]);
    const root = raw('application', 'Browser', [raw('window', 'Page', [document])]);
    const read = await readOutline(onDemand(root).accessibility, 1, { maxReads: 60 });
    const text = serializeTree(buildTree(read?.root as RawNode).root);
    expect(text).toContain('Far heading');
    expect(text).toContain('Shown 20');
    expect(text).not.toContain('Below 20');
  });

  it('stops once what it read would fill the token budget twice: a page of long paragraphs costs a few dozen reads, not the thousand the node budget allows', async () => {
    const text = 'A long paragraph of page text that goes on. '.repeat(20);
    const paragraphs = Array.from({ length: 400 }, (_unused, index) => raw('text', '', undefined, { value: `${index}: ${text}` }));
    const root = raw('application', 'Browser', [raw('window', 'Page', [raw('document', 'Page', [raw('heading', 'Essay'), ...paragraphs])])]);
    const platform = onDemand(root);
    const read = await readOutline(platform.accessibility, 1, { maxReads: 1000, maxTokens: 2000 });
    expect(platform.reads()).toBeLessThan(80);
    const text2000 = serializeTree(buildTree(read?.root as RawNode).root, { maxTokens: 2000 });
    expect(text2000).toContain('heading "Essay"');
    // The budget is filled, not starved: more paragraphs were read than it prints.
    expect(estimateTokens(text2000)).toBeGreaterThan(1500);
  });

  it('is undefined where the platform reads the app whole', async () => {
    const whole = {
      getTree: () => Promise.resolve(raw('application', 'A')),
      readChildren: () => Promise.resolve(undefined),
    } as unknown as AccessibilityBackend;
    expect(await readOutline(whole, 1, { maxReads: 100 })).toBeUndefined();
    expect(
      await readOutline({ getTree: () => Promise.resolve(raw('application', 'A')) } as unknown as AccessibilityBackend, 1, { maxReads: 100 }),
    ).toBeUndefined();
  });
});

describe('ActionEngine.observeOutline', () => {
  it("expands a marker's id on the next call: the subtree under it, read with the budget", async () => {
    const { root } = page(20_000);
    const engine = engineOver(onDemand(root).accessibility);
    const first = await engine.observeOutline(1, { maxReads: 1000 });
    const text = serializeTree(first?.root as UiNode, { style: 'compact' });
    const marker = /… truncated: (\d+) more under ([a-z]{5})/.exec(text);
    expect(marker).not.toBeNull();
    const [, count, id] = marker as unknown as [string, string, string];
    // A fresh engine, as the next CLI call is a fresh process.
    const platform = onDemand(root);
    const next = await engineOver(platform.accessibility).observeOutline(1, { maxReads: 1000, rootId: id });
    expect(next?.subject.id).toBe(id);
    const subtree = serializeTree(next?.subject as UiNode, { style: 'compact' });
    expect(subtree.split('\n').length).toBeGreaterThan(Math.min(Number(count), 20));
    expect(platform.reads()).toBeLessThanOrEqual(1000 * 4);
  });

  it('is undefined for an id the read does not meet, so the caller reads whole', async () => {
    const engine = engineOver(onDemand(page(2_000).root).accessibility);
    expect(await engine.observeOutline(1, { maxReads: 200, rootId: 'zzzzz' })).toBeUndefined();
  });
});

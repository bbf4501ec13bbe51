import { describe, expect, it } from 'vitest';
import { ROLE, ROOT_PATH } from '../../../../native/linux/atspi';
import type { AtspiClient } from './client';
import { awaitPageNames, webDocuments } from './late-names';

type Tree = Record<string, { role: number; children: string[] }>;

/** Whether a rule's role words (`ai`, 32 roles a word) hold `role`. */
function ruleHas(rule: unknown[], role: number): boolean {
  const words = rule[4] as number[];
  return ((words[role >> 5] ?? 0) & (1 << (role & 31))) !== 0;
}

/**
 * A Firefox-shaped app (application > frame > panel > scroll pane > internal frame > document,
 * with a toolbar beside the panel), one tab per document, each document holding `probes` links
 * and a long run of paragraphs; the links' names answer "" for their first `blankAsks` rounds (as
 * Gecko's do before the page sends them). Collection's GetMatches is answered as at-spi2-atk
 * answers it: the children alone, or the whole subtree in document order until `count` match,
 * and every node it visits is counted.
 */
function fakeClient(documents: number, probes: number, blankAsks: number, paragraphs = 0) {
  const tree: Tree = {
    [ROOT_PATH]: { role: ROLE.APPLICATION, children: ['/frame'] },
    '/frame': { role: ROLE.FRAME, children: ['/toolbar', '/panel'] },
    '/toolbar': { role: ROLE.TOOL_BAR, children: ['/back'] },
    '/back': { role: ROLE.PUSH_BUTTON, children: [] },
    '/panel': { role: ROLE.PANEL, children: [] },
  };
  for (let tab = 0; tab < documents; tab += 1) {
    const document = `/doc/${tab}`;
    tree['/panel']?.children.push(`/scroll/${tab}`);
    tree[`/scroll/${tab}`] = { role: ROLE.SCROLL_PANE, children: [`/inner/${tab}`] };
    tree[`/inner/${tab}`] = { role: ROLE.INTERNAL_FRAME, children: [document] };
    const content = [
      ...Array.from({ length: paragraphs }, (_each, index) => `${document}/p${index}`),
      ...Array.from({ length: probes }, (_each, index) => `${document}/link${index}`),
    ];
    tree[document] = { role: ROLE.DOCUMENT_WEB, children: content };
    for (const path of content) tree[path] = { role: path.includes('/link') ? ROLE.LINK : ROLE.PARAGRAPH, children: [] };
  }
  const counts = { matches: 0, visited: 0, names: 0 };
  const client = {
    call: async (ref: [string, string], _iface: string, _method: string, _signature: string, args: unknown[]) => {
      counts.matches += 1;
      const [rule, , count, traverse] = args as [unknown[], number, number, boolean];
      const found: [string, string][] = [];
      const visit = (path: string): void => {
        for (const child of tree[path]?.children ?? []) {
          if (count > 0 && found.length >= count) return;
          counts.visited += 1;
          if (ruleHas(rule, tree[child]?.role ?? -1)) found.push([':1.5', child]);
          if (traverse) visit(child);
        }
      };
      visit(ref[1]);
      // Another app's node in the answer is never asked.
      return [[...found, [':1.9', '/other']]];
    },
    property: async (ref: [string, string]) => {
      if (ref[0] !== ':1.5') throw new Error(`asked another app: ${ref.join(' ')}`);
      counts.names += 1;
      return counts.names > blankAsks * documents * probes ? 'A link' : '';
    },
  } as unknown as AtspiClient;
  return { client, counts };
}

const noWait = { pause: async () => {} };

describe('webDocuments', () => {
  it('finds every tab’s document down the nodes that hold them, never visiting a page’s content or the toolbars’ insides', async () => {
    const { client, counts } = fakeClient(3, 2, 0, 5000);
    expect(await webDocuments(client, ':1.5')).toEqual([
      [':1.5', '/doc/0'],
      [':1.5', '/doc/1'],
      [':1.5', '/doc/2'],
    ]);
    // Each holder's children only: the 15,006 content nodes and the toolbar's button are never reached.
    expect(counts.visited).toBeLessThan(30);
  });

  it('finds none in an app with no web document', async () => {
    const { client } = fakeClient(0, 0, 0);
    expect(await webDocuments(client, ':1.5')).toEqual([]);
  });
});

describe('awaitPageNames', () => {
  it('asks each document’s first links and headings until one is named, then never again for that client and app', async () => {
    const { client, counts } = fakeClient(2, 2, 3);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    // Three blank rounds of 2 documents × 2 probes, then one named round.
    expect(counts.names).toBe(16);
    const asked = counts.matches;
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(counts).toMatchObject({ matches: asked, names: 16 });
  });

  it('stops asking after a bound when a page’s nodes stay unnamed', async () => {
    const { client, counts } = fakeClient(1, 1, Infinity);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(counts.names).toBe(12);
  });

  it('does not wait on a document with no links, headings or buttons', async () => {
    const { client, counts } = fakeClient(1, 0, Infinity);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(true);
    expect(counts.names).toBe(0);
  });

  it('asks again on the next read while the app has no page yet', async () => {
    const { client, counts } = fakeClient(0, 0, 0);
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    const asked = counts.matches;
    expect(await awaitPageNames(client, ':1.5', noWait)).toBe(false);
    expect(counts.matches).toBe(2 * asked);
  });
});

/**
 * The compact tree of a generated page in Chromium, read on demand within the budget: the
 * page's outline (every heading and landmark) is named, the tables say how much more is under
 * which id, that id expands on the next call, and the ids are those a whole read gives.
 * Skipped where Chromium is not installed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { UiNode } from '../../src/shared/ui-node';
import { readOutline } from '../../src/core/platform/outline-read';
import { observeForText, readsFor } from '../../src/core/tools/tree-read';
import { DEFAULT_SERIALIZE, serializeTree } from '../../src/core/ui/serialize';
import { startDesktop, type Desktop } from './desktop';
import { hasHeadlessTools } from './session';
import { waitFor } from './wait-for';
import { chromiumArgs } from './toolkit-apps';

const CHROMIUM = '/usr/bin/chromium';
const run = (hasHeadlessTools() || process.env['CI'] !== undefined) && existsSync(CHROMIUM);
const SECTIONS = 6;
const ROWS = 60;

/** About 2,000 nodes: named sections, each a heading, a labelled form and a table of rows with buttons. */
function page(): string {
  const parts: string[] = ['<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Compact test</title></head><body>'];
  parts.push('<header aria-label="Top banner"><h1>Compact test</h1></header><main aria-label="Main body">');
  for (let s = 1; s <= SECTIONS; s += 1) {
    parts.push(`<section aria-label="Section ${s}"><h2>Heading ${s}</h2><form aria-label="Form ${s}"><label>Field ${s} <input></label></form><table>`);
    for (let r = 1; r <= ROWS; r += 1) parts.push(`<tr><td>Cell ${s}.${r}</td><td><button>Go ${s}.${r}</button></td></tr>`);
    parts.push('</table></section>');
  }
  parts.push('</main><footer aria-label="Bottom footer"><p>The end</p></footer></body></html>');
  return parts.join('\n');
}

const OUTLINE = [
  'heading "Compact test"',
  ...Array.from({ length: SECTIONS }, (_unused, index) => `heading "Heading ${index + 1}"`),
  '"Top banner"',
  '"Main body"',
  ...Array.from({ length: SECTIONS }, (_unused, index) => `"Section ${index + 1}"`),
  '"Bottom footer"',
];

function findNode(root: UiNode, test: (node: UiNode) => boolean): UiNode | undefined {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop() as UiNode;
    if (test(node)) return node;
    stack.push(...(node.children ?? []));
  }
  return undefined;
}

describe.skipIf(!run)('compact tree of a page in Chromium, read within the budget', () => {
  let desktop: Desktop;
  let child: ChildProcess | undefined;
  let pid = 0;
  const compact = async (rootId?: string): Promise<{ subject: UiNode; text: string }> => {
    const { subject } = await observeForText(desktop.engine, pid, { rootId, maxTokens: DEFAULT_SERIALIZE.maxTokens, maxNodes: DEFAULT_SERIALIZE.maxNodes });
    return { subject, text: serializeTree(subject) };
  };

  beforeAll(async () => {
    desktop = await startDesktop();
    const home = desktop.session.env['HOME'] as string;
    mkdirSync(home, { recursive: true });
    const file = path.join(home, 'compact.html');
    writeFileSync(file, page());
    child = desktop.session.launch(CHROMIUM, chromiumArgs(path.join(home, 'chromium'), file));
    pid = await waitFor(
      async () => (await desktop.platform.apps.list()).find((app) => /chrom/i.test(app.name) && app.windows.length > 0)?.pid,
      60_000,
      'Chromium',
    );
    // Loaded once the page's last landmark is in the outline.
    await waitFor(async () => ((await compact()).text.includes('"Bottom footer"') ? true : undefined), 60_000, 'the page to load');
  }, 150_000);

  afterAll(async () => {
    child?.kill('SIGTERM');
    await desktop?.stop();
  });

  it('names every heading and landmark, within the budget, and reads no more than the budget holds', async () => {
    const { text } = await compact();
    for (const name of OUTLINE) expect(text).toContain(name);
    expect(text).toMatch(/… truncated: \d+ more under [a-z]{5}/);
    const read = await readOutline(desktop.platform.accessibility, pid, { maxReads: readsFor(DEFAULT_SERIALIZE.maxTokens, DEFAULT_SERIALIZE.maxNodes) });
    expect(read, 'Chromium is read on demand').toBeDefined();
    expect(read?.reads).toBeLessThanOrEqual(readsFor(DEFAULT_SERIALIZE.maxTokens, DEFAULT_SERIALIZE.maxNodes) + 1);
  }, 60_000);

  it("expands a table's marker on the next call, with the ids a whole read gives", async () => {
    const { text } = await compact();
    const marker = /\[([a-z]{5})\] table\n(?:.*\n)*?\s*… truncated: (\d+) more under \1/.exec(text);
    expect(marker, text.slice(0, 2000)).not.toBeNull();
    const tableId = (marker as RegExpExecArray)[1] as string;
    const { subject, text: subtree } = await compact(tableId);
    expect(subject.id).toBe(tableId);
    expect(subtree.split('\n').filter((line) => line.includes('] row')).length).toBeGreaterThan(
      text.split('\n').filter((line) => line.includes('] row')).length / SECTIONS,
    );
    // A whole read (as an action resolves ids) gives the same ids to the same headings and buttons.
    const whole = (await desktop.engine.observe(pid, { fresh: true, maxNodes: 4999 })).root;
    for (const [role, name] of [
      ['heading', 'Heading 3'],
      ['button', 'Go 1.1'],
    ] as const) {
      const outlineId = new RegExp(`\\[([a-z]{5})\\] ${role} "${name}"`).exec(text)?.[1];
      expect(outlineId, name).toBeDefined();
      expect(findNode(whole, (node) => node.role === role && node.name === name)?.id, name).toBe(outlineId);
    }
  }, 90_000);

  it('names the focused button deep below the fold, with the rows beside it and the section that holds it', async () => {
    const whole = await desktop.engine.observe(pid, { fresh: true, maxNodes: 4999 });
    const target = findNode(whole.root, (node) => node.role === 'button' && node.name === `Go ${SECTIONS}.50`);
    expect(target).toBeDefined();
    const { text: before } = await compact();
    expect(before).not.toContain(`Go ${SECTIONS}.50`);
    await desktop.platform.accessibility.focus(whole.refs.get(target?.id ?? ''), target as UiNode);
    const text = await waitFor(
      async () => {
        const { text: now } = await compact();
        return now.includes(`"Go ${SECTIONS}.50" (focused)`) ? now : undefined;
      },
      20_000,
      'the focused button in the compact tree',
    );
    for (let row = 47; row <= 53; row += 1) expect(text).toContain(`"Go ${SECTIONS}.${row}"`);
    expect(text).toContain(`"Section ${SECTIONS}"`);
    // Its id is the one a whole read gives.
    expect(new RegExp(`\\[([a-z]{5})\\] button "Go ${SECTIONS}.50"`).exec(text)?.[1]).toBe(target?.id);
  }, 90_000);
});

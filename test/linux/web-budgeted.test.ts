/**
 * The first read of a Firefox page by a client nothing had read it with before: Gecko answers a
 * page's names "" until its content process has sent them, and asks for them only at the first
 * name a client asks (late-names.ts). A budgeted read (the compact tree, `tree --budget`) reaches
 * the page in milliseconds, so it named neither the document nor its headings; the whole walk,
 * slower, named both. Here the page loads untouched (its window found through X, not AT-SPI),
 * then the budgeted read comes first, and must name what the walk names; the whole read in
 * document order must be the walk's, node for node.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { observeForText } from '../../src/core/tools/tree-read';
import type { Desktop } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { BROWSER_BINARY, readTwoWays } from './order-compare';
import { TOOLKIT_APPS } from './toolkit-apps';
import { hasHeadlessTools, waitFor } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const TITLE = 'Deskpilot budget manual';
const HEADINGS = ['Getting started', 'Reading a tree', 'Acting on a node', 'When a read is cut'];
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>${TITLE}</title></head><body>
<nav aria-label="Chapters"><ul>${HEADINGS.map((heading) => `<li><a href="#${heading.length}">${heading}</a></li>`).join('')}</ul></nav>
<main>${HEADINGS.map((heading, index) => `<h${(index % 2) + 1} id="${heading.length}"><a name="h${index}"></a>${index + 1}. ${heading}</h${(index % 2) + 1}><p>${'Some words of the chapter. '.repeat(20)}</p>`).join('\n')}</main>
<aside aria-label="Notes"><p>A note beside the text.</p></aside></body></html>`;

/** Landmarks (nav, main, aside) are groups. */
const NAMED_ROLES = new Set(['document', 'heading', 'group']);

/** Document, heading and landmark lines in document order: role and name. */
function outline(root: UiNode): string[] {
  const lines: string[] = [];
  const visit = (node: UiNode): void => {
    if (NAMED_ROLES.has(node.role)) lines.push(`${node.role} ${JSON.stringify(node.name)}`);
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return lines;
}

describe('a first budgeted read of a Firefox page', () => {
  const present = run && existsSync(BROWSER_BINARY.firefox);
  let desktop: Desktop | undefined;

  beforeAll(async () => {
    if (!present) return;
    desktop = await leaseDesktop({ openbox: true });
  }, 120_000);

  afterAll(async () => desktop?.stop(), 30_000);

  it.skipIf(!present)(
    'names the document and every heading and landmark the walk names, and the whole read in order is the walk’s',
    async () => {
      const session = (desktop as Desktop).session;
      const home = session.env['HOME'] as string;
      TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
      const file = path.join(home, 'budget.html');
      writeFileSync(file, PAGE);
      session.launch(BROWSER_BINARY.firefox, ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${file}`], {
        env: { MOZ_ENABLE_WAYLAND: '0' },
      });
      // Waited for through X: any AT-SPI call would ask Gecko for names before the read under test.
      await waitFor(
        async () =>
          (await promisify(execFile)('xdotool', ['search', '--name', TITLE], { env: session.env }).then(
            ({ stdout }) => stdout.trim() !== '',
            () => false,
          ))
            ? true
            : (await new Promise((resolve) => setTimeout(resolve, 500)), undefined),
        90_000,
        'the page’s window',
      );
      const engine = (desktop as Desktop).engine;
      const pid = (await (desktop as Desktop).platform.apps.list()).find((app) => app.windows.some((window) => window.title.includes(TITLE)))?.pid;
      expect(pid).toBeDefined();
      const { subject } = await observeForText(engine, pid as number, { maxTokens: 1500, maxNodes: 500 });
      const budgeted = outline(subject);
      const walked = outline((await engine.observe(pid as number, { fresh: true })).root);
      expect(walked).toContain(`document ${JSON.stringify(TITLE)}`);
      expect(walked).toContain('group "Chapters"');
      for (const heading of HEADINGS) expect(walked.some((line) => line.startsWith('heading') && line.endsWith(`${heading}"`))).toBe(true);
      // The budget holds this whole page: its outline is the walk's.
      expect(budgeted).toEqual(walked);

      const reads = await readTwoWays(desktop as Desktop, pid as number, 'Gecko');
      expect(reads.ordered).toEqual(reads.walked);
    },
    180_000,
  );
});

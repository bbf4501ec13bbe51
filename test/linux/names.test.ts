/**
 * Accessible names as a screen reader computes them, checked through `deskpilot tree --json`
 * on real forms: GTK3 and GTK4 builds of the form fixture, and a zenity form.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UiNode } from '../../src/shared/ui-node';
import { walk } from '../../src/core/ui/tree-index';
import { ROOT, startDesktop, type Desktop, type LaunchedApp } from './desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/deskpilot.js');
const FORM = fileURLToPath(new URL('../../resources/fixture-app/form-fixture.py', import.meta.url));

describe.skipIf(!run)('accessible names on real forms', () => {
  let desktop: Desktop;

  beforeAll(async () => {
    desktop = await startDesktop();
  }, 60_000);

  afterAll(async () => desktop?.stop());

  async function cli(...args: string[]): Promise<string> {
    const { stdout } = await promisify(execFile)(NODE, [BIN, ...args], { env: desktop.session.env, cwd: ROOT, timeout: 30_000 });
    return stdout;
  }

  /** The form fixture, launched once per toolkit: the GTK3 one serves the names test and then the retitle test. */
  const forms = new Map<string, Promise<LaunchedApp>>();
  const form = (args: readonly string[]): Promise<LaunchedApp> => {
    const key = args.join(' ');
    const launched = forms.get(key) ?? desktop.launch('/usr/bin/python3', [FORM, ...args]);
    forms.set(key, launched);
    return launched;
  };

  const fields = (root: UiNode): UiNode[] => [...walk(root)].filter((node) => ['textfield', 'textarea', 'combobox'].includes(node.role));
  const byName = (root: UiNode, name: string): UiNode | undefined => fields(root).find((node) => node.name === name);

  for (const [toolkit, args] of [
    ['GTK3', []],
    ['GTK4', ['--gtk4']],
  ] as const) {
    it(`${toolkit}: every labelled field has its label's name, a guess is marked, and the placeholder is read`, async () => {
      const { pid } = await form(args);
      // Both reads at once: each is a CLI process of its own, and neither changes the form.
      const [json, text] = await Promise.all([cli('tree', '--json', '--pid', String(pid)), cli('tree', '--pid', String(pid))]);
      const root = JSON.parse(json) as UiNode;
      // The grid lists its children in reverse; the names still pair each field with its own label.
      expect(byName(root, 'Name')).toMatchObject({ value: 'Ada' });
      expect(byName(root, 'City')).toBeDefined();
      expect(byName(root, 'Plan')?.role).toBe('combobox');
      // No relation, only a label to its left: a guess, and marked as one.
      expect(byName(root, 'Phone')).toMatchObject({ nameFrom: 'geometry' });
      expect(fields(root).find((node) => node.placeholder === 'Search the docs')).toMatchObject({ name: '' });
      // The compact text prints each label once, as its field's name.
      expect(text).toMatch(/textfield|textarea/);
      expect(text.match(/"City"/g)).toHaveLength(1);
      expect(text).toMatch(/"Phone" \(name guessed\)/);
      expect(text).toMatch(/placeholder "Search the docs"/);
    }, 30_000);
  }

  it('a window retitled by a button keeps its children’s ids', async () => {
    // After the names test that reads this form: the click changes its title.
    const { pid } = await form([]);
    const before = (await desktop.engine.observe(pid, { fresh: true })).root;
    const button = [...walk(before)].find((node) => node.role === 'button' && node.name === 'Retitle') as UiNode;
    await desktop.engine.run(pid, { action: 'click', id: button.id });
    const after = (await desktop.engine.observe(pid, { fresh: true })).root;
    const title = (root: UiNode): string => [...walk(root)].find((node) => node.role === 'window')?.name ?? '';
    expect(title(after)).toBe(`*${title(before)}`);
    const ids = (root: UiNode): string[] => [...walk(root)].filter((node) => node.role !== 'window' && node.role !== 'application').map((node) => node.id);
    expect(ids(after)).toEqual(ids(before));
  }, 30_000);

  it('names the entries of a real zenity form by their labels', async () => {
    const { pid } = await desktop.launch('zenity', ['--forms', '--title=Sign up', '--add-entry=First name', '--add-entry=Email']);
    const root = JSON.parse(await cli('tree', '--json', '--pid', String(pid))) as UiNode;
    expect(byName(root, 'First name')).toBeDefined();
    expect(byName(root, 'Email')).toBeDefined();
  }, 30_000);
});

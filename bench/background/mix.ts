/**
 * bench:background's mix: per toolkit, the apps to start before the run and the actions to take
 * during it (text entry, form filling, buttons, menus, list selection, dialog confirmation).
 * Each step finds its node when it runs, by role and name, as a model would from a fresh read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { UiNode } from '../../src/shared/ui-node';
import { findNodes } from '../../src/core/ui/query';
import { walk } from '../../src/core/ui/tree-index';
import type { Desktop } from '../../test/linux/desktop';
import { TOOLKIT_APPS, launchAppProcess } from '../../test/linux/toolkit-apps';

export interface Step {
  kind: 'text' | 'form' | 'button' | 'menu' | 'list' | 'dialog';
  /** Which started app it acts on (an index into the toolkit's apps). */
  app: number;
  /** The request, built from the app's tree now; undefined when the node is not there. */
  request: (root: UiNode) => Record<string, unknown> | undefined;
}

export interface Toolkit {
  name: string;
  /** Starts the toolkit's apps and returns their pids, before the user starts typing. */
  start: (desktop: Desktop) => Promise<number[]>;
  steps: Step[];
}

const first = (root: UiNode, role: string, name?: string): UiNode | undefined =>
  findNodes(root, { role, ...(name === undefined ? {} : { name }) }).find((match) => match.node.states.enabled)?.node;
const editable = (root: UiNode): UiNode | undefined =>
  [...walk(root)].find((node) => (node.role === 'textarea' || node.role === 'document' || node.role === 'textfield') && node.states.editable === true);
const byPrefix = (root: UiNode, role: string, prefix: string): UiNode | undefined =>
  [...walk(root)].find((node) => node.role === role && node.name.startsWith(prefix));
const idOf = (node: UiNode | undefined): string | undefined => node?.id;

function act(kind: Step['kind'], app: number, find: (root: UiNode) => UiNode | undefined, rest: Record<string, unknown>): Step {
  return {
    kind,
    app,
    request: (root) => {
      const id = idOf(find(root));
      return id === undefined ? undefined : { id, ...rest };
    },
  };
}

/** Starts one of the toolkit test's apps (its profile, document or page), or throws when it is not installed. */
async function toolkitApp(desktop: Desktop, name: string): Promise<number> {
  const app = TOOLKIT_APPS.find((each) => each.name === name);
  if (app === undefined) throw new Error(`no toolkit app ${name}`);
  return (await launchAppProcess(desktop, app)).pid;
}

/** A paragraph of a document (Writer's), found by its text. */
const paragraph = (root: UiNode, text: string): UiNode | undefined => [...walk(root)].find((node) => String(node.value ?? '').includes(text));

/** The menu item at the end of a menu path (menus by name, then the item), searched under each menu in turn. */
function menuItem(root: UiNode, names: readonly string[]): UiNode | undefined {
  let under: UiNode | undefined = root;
  for (const [index, name] of names.entries()) {
    const role = index === names.length - 1 ? 'menuitem' : 'menu';
    under = under === undefined ? undefined : [...walk(under)].find((node) => node !== under && node.role === role && node.name === name);
  }
  return under;
}

const repeat = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_unused, index) => make(index));

export const TOOLKITS: Toolkit[] = [
  {
    name: 'GTK 3 (fixture, yad)',
    start: async (desktop) => {
      const pids = [(await desktop.launchFixture()).pid];
      for (let index = 0; index < 3; index += 1) pids.push((await desktop.launch('yad', [`--title=Confirm ${index}`, '--text=Proceed?'])).pid);
      return pids;
    },
    steps: [
      ...repeat(5, (index) => act('text', 0, (root) => first(root, 'textfield', 'Name'), { action: 'type', text: `ab${index}` })),
      ...repeat(3, (index) => act('form', 0, (root) => first(root, 'slider', 'Volume'), { action: 'set_value', value: 20 + index * 20 })),
      act('form', 0, (root) => first(root, 'textfield', 'Name'), { action: 'set_value', value: 'Ada Lovelace' }),
      ...repeat(3, () => act('button', 0, (root) => byPrefix(root, 'button', 'Clicked'), { action: 'click' })),
      ...repeat(2, () => act('button', 0, (root) => first(root, 'checkbox', 'Enable feature'), { action: 'click' })),
      ...repeat(3, (index) => act('list', 0, (root) => first(root, 'listitem', `Item ${index + 2}`), { action: 'click' })),
      act('dialog', 1, (root) => first(root, 'button', 'OK'), { action: 'click' }),
      act('dialog', 2, (root) => first(root, 'button', 'Cancel'), { action: 'key', key: 'escape' }),
      act('dialog', 3, (root) => first(root, 'button', 'OK'), { action: 'key', key: 'return' }),
    ],
  },
  {
    name: 'GTK 3 (mousepad)',
    start: async (desktop) => [(await desktop.launch('mousepad')).pid],
    steps: [
      ...repeat(6, (index) => act('text', 0, editable, { action: 'type', text: `line ${index} ` })),
      // Shortcuts of commands mousepad keeps enabled while its window is in the background
      // (it disables Select All, Copy and Cut then, so their keys could only be typed).
      act('menu', 0, editable, { action: 'key', key: 'ctrl+i' }),
      act('menu', 0, editable, { action: 'key', key: 'ctrl+alt+u' }),
      act('menu', 0, (root) => first(root, 'menuitem', 'To Uppercase'), { action: 'click' }),
      act('menu', 0, (root) => first(root, 'menuitem', 'To Lowercase'), { action: 'click' }),
      act('menu', 0, (root) => first(root, 'menuitem', 'Line Numbers'), { action: 'click' }),
      act('menu', 0, (root) => first(root, 'menuitem', 'Line Numbers'), { action: 'click' }),
      act('text', 0, editable, { action: 'type', text: 'the end' }),
      act('form', 0, editable, { action: 'set_value', value: 'replaced by set_value' }),
    ],
  },
  {
    name: 'GTK 4 (gnome-calculator)',
    start: async (desktop) => [(await desktop.launch('gnome-calculator', [], { GSK_RENDERER: 'cairo' })).pid],
    steps: ['7', '+', '8', '=', '×', '9', '=', '−', '4', '=', '1', '2', '3', '+', '5', '='].map((name) =>
      act('button', 0, (root) => first(root, 'button', name), { action: 'click' }),
    ),
  },
  {
    name: 'Gecko (firefox-esr)',
    start: async (desktop) => {
      const home = desktop.session.env['HOME'] as string;
      const profile = path.join(home, 'firefox-profile');
      mkdirSync(profile, { recursive: true });
      const page = path.join(home, 'form.html');
      writeFileSync(
        page,
        '<!doctype html><title>Form</title><input type="text" aria-label="City"><label><input type="checkbox"> Subscribe</label><button onclick="document.title=(document.title+\'!\')">Send</button>',
      );
      const { pid } = await desktop.launch('firefox-esr', ['--no-remote', '--new-instance', '--profile', profile, `file://${page}`], {
        MOZ_ACCESSIBILITY_ENABLED: '1',
      });
      // The page's document arrives after the window registers.
      for (let tries = 0; tries < 60; tries += 1) {
        if (first((await desktop.engine.observe(pid, { fresh: true })).root, 'checkbox', 'Subscribe') !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return [pid];
    },
    steps: [
      ...repeat(3, () => act('button', 0, (root) => first(root, 'checkbox', 'Subscribe'), { action: 'click' })),
      ...repeat(3, () => act('button', 0, (root) => first(root, 'button', 'Send'), { action: 'click' })),
      // Gecko's EditableText answers true and inserts nothing (its ATK callbacks return early), so this one is sent to the window.
      act('text', 0, (root) => first(root, 'textfield', 'City'), { action: 'type', text: 'Lisbon' }),
    ],
  },
  {
    name: 'Qt 5 (featherpad)',
    start: async (desktop) => [(await desktop.launch('featherpad', [], { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' })).pid],
    steps: [
      ...repeat(4, (index) => act('text', 0, editable, { action: 'type', text: `qt ${index} ` })),
      act('form', 0, editable, { action: 'set_value', value: 'set through Qt' }),
    ],
  },
  {
    name: 'LibreOffice (Writer)',
    start: async (desktop) => [await toolkitApp(desktop, 'writer')],
    steps: [
      ...repeat(3, (index) => act('text', 0, (root) => paragraph(root, 'quarterly numbers'), { action: 'type', text: ` w${index}` })),
      act('form', 0, (root) => paragraph(root, 'quarterly numbers'), { action: 'set_value', value: 'The quarterly numbers, set.' }),
      // Menu commands as a model runs them: the item's own action, its menu left closed (an open
      // menu's popup would hold the keyboard, and the user's keys with it, until it closed).
      ...['Centered', 'Justified', 'Left'].map((item) => act('menu', 0, (root) => menuItem(root, ['Format', 'Align Text', item]), { action: 'click' })),
    ],
  },
  {
    name: 'Chromium',
    start: async (desktop) => [await toolkitApp(desktop, 'chromium')],
    steps: [
      ...repeat(3, () => act('button', 0, (root) => first(root, 'checkbox', 'Subscribe'), { action: 'click' })),
      ...repeat(2, () => act('button', 0, (root) => first(root, 'button', 'Send'), { action: 'click' })),
      act('text', 0, (root) => first(root, 'textfield', 'Email'), { action: 'type', text: '.pt' }),
      act('form', 0, (root) => first(root, 'textfield', 'Email'), { action: 'set_value', value: 'grace@example.org' }),
    ],
  },
];

/**
 * One app per toolkit people use daily, as toolkits.test.ts and bench:apps start them: each
 * with a private profile under the session's HOME, a document or page whose text is known,
 * and the python3-pyatspi reference read of the same app.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { UiNode } from '../../src/shared/ui-node';
import { countNodes, walk } from '../../src/core/ui/tree-index';
import type { Desktop } from './desktop';
import { seedOfficeProfile } from './office-profile';
import { waitFor } from './wait-for';

const PYATSPI_DUMP = fileURLToPath(new URL('../../bench/reference/pyatspi-dump.py', import.meta.url));
/** The reference dump skips what a sheet claims (2^31 cells): listing them would hang LibreOffice, as it would any pyatspi script. */
const PYATSPI_MAX_CHILDREN = 1000;

export interface ToolkitApp {
  /** Row label: the app and its toolkit. */
  name: string;
  toolkit: string;
  /** The executable started; the test skips the app when it is absent. */
  binary: string;
  args(home: string): string[];
  env?: Record<string, string | undefined>;
  /** Text of the document, page or cell that the read must hold. */
  knownText: string;
  /** Writes the files the app opens. */
  prepare?(home: string): void;
  /** One action, and how its effect shows in an independent read (python3-pyatspi's). */
  action: AppAction;
}

export interface AppAction {
  describe: string;
  target(root: UiNode): UiNode | undefined;
  request(node: UiNode): Record<string, unknown>;
  landed(records: readonly PyatspiRecord[]): boolean;
}

const first = (root: UiNode, test: (node: UiNode) => boolean): UiNode | undefined => {
  for (const node of walk(root)) if (test(node)) return node;
  return undefined;
};

const TYPED = 'Typed by Deskpilot';
const textHas = (records: readonly PyatspiRecord[], wanted: string): boolean => records.some((record) => (record.text ?? '').includes(wanted));

/** set_value on the first editable text area (an editor's buffer), read back as that text. */
const setEditorText: AppAction = {
  describe: `set_value "${TYPED}" on the editor`,
  target: (root) => first(root, (node) => node.role === 'textarea' && node.states.editable === true) ?? first(root, (node) => node.role === 'textarea'),
  request: (node) => ({ action: 'set_value', id: node.id, value: TYPED }),
  landed: (records) => textHas(records, TYPED),
};

/** A click on the page's Subscribe check box, read back as its checked state. */
const checkSubscribe: AppAction = {
  describe: 'click the Subscribe check box',
  target: (root) => first(root, (node) => node.role === 'checkbox' && node.name.includes('Subscribe')),
  request: (node) => ({ action: 'click', id: node.id }),
  landed: (records) => records.some((record) => record.role === 'check box' && record.name.includes('Subscribe') && record.states.includes('checked')),
};

const PAGE = `<!doctype html><html><head><title>Deskpilot page</title></head><body>
<h1>Deskpilot page</h1>
<p>The paragraph text is here for reading.</p>
<label>Email <input id="email" value="ada@example.org"></label>
<label><input type="checkbox" id="subscribe"> Subscribe</label>
<button>Send</button>
</body></html>`;

const FODT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text><text:h text:outline-level="1">Deskpilot report</text:h><text:p>The quarterly numbers are in the second table.</text:p></office:text></office:body></office:document>`;

const FODS = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Sheet1"><table:table-row>
<table:table-cell office:value-type="string"><text:p>Quarterly</text:p></table:table-cell>
<table:table-cell office:value-type="float" office:value="42"><text:p>42</text:p></table:table-cell>
</table:table-row></table:table></office:spreadsheet></office:body></office:document>`;

const FIREFOX_PREFS = [
  'user_pref("browser.aboutwelcome.enabled", false);',
  'user_pref("browser.startup.homepage_override.mstone", "ignore");',
  'user_pref("startup.homepage_welcome_url", "");',
  'user_pref("startup.homepage_welcome_url.additional", "");',
  'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
  'user_pref("datareporting.policy.firstRunURL", "");',
  'user_pref("browser.shell.checkDefaultBrowser", false);',
  'user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);',
  // Firefox loads a hidden New Tab page a few seconds after start, whose document joins the tree
  // between two reads of the same page (web-budgeted.test.ts saw a "New Tab" document and 30 groups
  // in the second read only): the tests compare reads of the page they open, so none is preloaded.
  'user_pref("browser.newtab.preload", false);',
  '',
].join('\n');

const NOTE = 'Deskpilot notes: the known line of this file.\n';

function write(home: string, name: string, text: string): string {
  mkdirSync(home, { recursive: true });
  const file = path.join(home, name);
  writeFileSync(file, text);
  return file;
}

/** Writer and Calc share a profile (one after the other): the second start skips making it. */
/** LibreOffice's launcher forks soffice.bin, which restarts itself once on a fresh profile: the app is found among the launcher's descendants. */
const SOFFICE = '/usr/bin/soffice';
const libreOffice = (home: string, profile: string): string[] => [
  `-env:UserInstallation=file://${path.join(home, profile)}`,
  '--norestore',
  '--nologo',
  '--nodefault',
];

/**
 * Chromium as the tests and benches start it: the renderer's tree on (--force-renderer-accessibility),
 * a profile of its own, no first-run pages, no keyring, and no sandbox when run as root (CI).
 */
export function chromiumArgs(profile: string, file: string): string[] {
  return [
    '--force-renderer-accessibility',
    '--no-first-run',
    '--no-default-browser-check',
    '--password-store=basic',
    '--disable-gpu',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    `--user-data-dir=${profile}`,
    `file://${file}`,
  ];
}

export const TOOLKIT_APPS: readonly ToolkitApp[] = [
  {
    name: 'featherpad',
    toolkit: 'Qt 5',
    binary: '/usr/bin/featherpad',
    args: (home) => [path.join(home, 'note.txt')],
    env: { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1', QT_QPA_PLATFORM: 'xcb' },
    knownText: 'Deskpilot notes',
    prepare: (home) => void write(home, 'note.txt', NOTE),
    action: setEditorText,
  },
  {
    name: 'qt6ct',
    toolkit: 'Qt 6',
    binary: '/usr/bin/qt6ct',
    args: () => [],
    env: { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1', QT_QPA_PLATFORM: 'xcb' },
    knownText: 'Appearance',
    action: {
      describe: 'click the Custom palette radio',
      target: (root) => first(root, (node) => node.role === 'radio' && node.name === 'Custom'),
      request: (node) => ({ action: 'click', id: node.id }),
      landed: (records) => records.some((record) => record.role === 'radio button' && record.name === 'Custom' && record.states.includes('checked')),
    },
  },
  {
    name: 'writer',
    toolkit: 'LibreOffice (GTK 3)',
    binary: SOFFICE,
    args: (home) => [...libreOffice(home, 'libreoffice'), '--writer', path.join(home, 'report.fodt')],
    knownText: 'The quarterly numbers are in the second table.',
    prepare: (home) => {
      write(home, 'report.fodt', FODT);
      seedOfficeProfile(path.join(home, 'libreoffice'));
    },
    action: {
      describe: `set_value "${TYPED}" on the paragraph`,
      target: (root) => first(root, (node) => String(node.value ?? '').includes('quarterly numbers')),
      request: (node) => ({ action: 'set_value', id: node.id, value: TYPED }),
      landed: (records) => textHas(records, TYPED),
    },
  },
  {
    name: 'calc',
    toolkit: 'LibreOffice (GTK 3)',
    binary: SOFFICE,
    args: (home) => [...libreOffice(home, 'libreoffice'), '--calc', path.join(home, 'sheet.fods')],
    knownText: 'Quarterly',
    prepare: (home) => {
      write(home, 'sheet.fods', FODS);
      seedOfficeProfile(path.join(home, 'libreoffice'));
    },
    action: {
      describe: 'type 123 and Return into cell A3',
      target: (root) => first(root, (node) => node.role === 'cell' && node.name === 'A3'),
      request: (node) => ({ action: 'type', id: node.id, text: '123\n' }),
      landed: (records) => records.some((record) => record.role === 'table cell' && record.name === 'A3' && (record.text ?? '').includes('123')),
    },
  },
  {
    name: 'firefox-esr',
    toolkit: 'Gecko',
    binary: '/usr/bin/firefox-esr',
    args: (home) => ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${path.join(home, 'page.html')}`],
    env: { MOZ_ENABLE_WAYLAND: '0' },
    knownText: 'The paragraph text is here for reading.',
    prepare: (home) => {
      write(home, 'page.html', PAGE);
      // No first-run tabs or notices: the window holds the page alone, as a returning user's does.
      write(path.join(home, 'firefox'), 'user.js', FIREFOX_PREFS);
    },
    action: checkSubscribe,
  },
  {
    name: 'chromium',
    toolkit: 'Chromium',
    binary: '/usr/bin/chromium',
    args: (home) => chromiumArgs(path.join(home, 'chromium'), path.join(home, 'page.html')),
    knownText: 'The paragraph text is here for reading.',
    prepare: (home) => void write(home, 'page.html', PAGE),
    action: checkSubscribe,
  },
  {
    name: 'gnome-text-editor',
    toolkit: 'GTK 4',
    binary: '/usr/bin/gnome-text-editor',
    args: (home) => ['--standalone', path.join(home, 'note.txt')],
    knownText: 'Deskpilot notes',
    prepare: (home) => void write(home, 'note.txt', NOTE),
    action: setEditorText,
  },
  {
    name: 'gnome-calculator',
    toolkit: 'GTK 4',
    binary: '/usr/bin/gnome-calculator',
    args: () => [],
    knownText: 'Basic',
    action: {
      describe: 'click 7',
      // GTK 4.8 names a calculator key after its label twice ("7 7").
      target: (root) => first(root, (node) => node.role === 'button' && node.name.split(' ')[0] === '7'),
      request: (node) => ({ action: 'click', id: node.id }),
      landed: (records) =>
        records.some((record) => (record.role === 'text' || record.role === 'entry' || record.role === 'editbar') && (record.text ?? '').includes('7')),
    },
  },
];

export function isInstalled(app: ToolkitApp): boolean {
  return existsSync(app.binary);
}

/**
 * Interactive roles by their AT-SPI number (our nodes keep it as `platformRole`) and as pyatspi
 * names them, so both sides count the same nodes: buttons, toggles, menu items, entries, combo
 * boxes, links, tabs, list and tree items, sliders and spin buttons.
 */
const INTERACTIVE_ATSPI_ROLES = new Set([43, 129, 62, 7, 44, 130, 35, 8, 45, 79, 40, 11, 76, 88, 37, 32, 51, 52, 91].map((role) => `atspi:${role}`));
const PYATSPI_INTERACTIVE = new Set([
  'push button',
  'push button menu',
  'toggle button',
  'check box',
  'radio button',
  'switch',
  'menu item',
  'check menu item',
  'radio menu item',
  'entry',
  'password text',
  'combo box',
  'autocomplete',
  'link',
  'page tab',
  'list item',
  'slider',
  'spin button',
  'tree item',
]);

export interface Share {
  named: number;
  interactive: number;
  ratio: number;
}

function share(named: number, interactive: number): Share {
  return { named, interactive, ratio: interactive === 0 ? 1 : named / interactive };
}

/** The interactive nodes without a name, for a failure to show. */
export function unnamedInteractive(root: UiNode): string[] {
  return [...walk(root)]
    .filter((node) => INTERACTIVE_ATSPI_ROLES.has(node.platformRole ?? '') && node.name.trim() === '')
    .map((node) => `${node.role} ${node.id}`);
}

export function ourNamedShare(root: UiNode): Share {
  let named = 0;
  let interactive = 0;
  for (const node of walk(root)) {
    if (!INTERACTIVE_ATSPI_ROLES.has(node.platformRole ?? '')) continue;
    interactive += 1;
    if (node.name.trim() !== '') named += 1;
  }
  return share(named, interactive);
}

/** Every piece of text the tree holds: names, values, descriptions. */
export function treeText(root: UiNode): string {
  const parts: string[] = [];
  for (const node of walk(root)) parts.push(node.name, String(node.value ?? ''), node.description ?? '');
  return parts.join('\n');
}

export interface PyatspiRecord {
  role: string;
  name: string;
  states: string[];
  text?: string;
}

export interface PyatspiRead {
  nodes: number;
  /** Each dump's time, in order: the first is the process's coldest (pyatspi's own cache empty). */
  runs_ms: number[];
  median_ms: number;
  records: PyatspiRecord[];
}

/** What a reference read may leave out when its check needs less than the whole dump (the default reads it all). */
export interface PyatspiScope {
  /** Nodes of these roles (pyatspi's names) are recorded, and nothing under them. */
  pruneRoles?: readonly string[];
  /** Left out of every record: states then read as an empty list. */
  without?: readonly ('states' | 'extents' | 'text')[];
}

/**
 * For a count of named controls, which reads roles and names alone. The other calls cost LibreOffice
 * Writer's 1,941-node dump more than half its time (0.3 instead of 0.75 CPU-s in python3, 0.35 instead
 * of 0.7 in the app).
 */
export const NAMES_ONLY: PyatspiScope = { without: ['states', 'extents', 'text'] };

/**
 * For an action's effect, which shows where the action was made (a document, a cell, a control), never
 * inside the menu bar: 1,700 of Writer's 1,941 nodes are menus, and leaving them out makes the read a
 * quarter of the cost. It is no weaker: a menu's label that quotes the last edit (Undo's) cannot pass for it.
 */
export const OUTSIDE_MENUS: PyatspiScope = { pruneRoles: ['menu bar'] };

/** python3-pyatspi's read of the same app (Debian's python, the one that has pyatspi). */
export async function pyatspiRead(env: NodeJS.ProcessEnv, pid: number, runs = 1, scope: PyatspiScope = {}): Promise<PyatspiRead> {
  const narrowed = [...(scope.pruneRoles ?? []).flatMap((role) => ['--prune-role', role]), ...(scope.without ?? []).flatMap((part) => ['--without', part])];
  const { stdout } = await promisify(execFile)(
    '/usr/bin/python3',
    [PYATSPI_DUMP, '--pid', String(pid), '--runs', String(runs), '--max-children', String(PYATSPI_MAX_CHILDREN), '--records', ...narrowed],
    { env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as PyatspiRead;
}

export function pyatspiNamedShare(records: readonly PyatspiRecord[]): Share {
  const interactive = records.filter((record) => PYATSPI_INTERACTIVE.has(record.role));
  return share(interactive.filter((record) => record.name.trim() !== '').length, interactive.length);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Whether `pid` is `ancestor` or runs under it (a launcher script's fork). */
export function descendsFrom(pid: number, ancestor: number): boolean {
  let current: number | undefined = pid;
  for (let depth = 0; depth < 8 && current !== undefined && current > 1; depth += 1) {
    if (current === ancestor) return true;
    current = parentOf(current);
  }
  return false;
}

/** LibreOffice and Firefox take many seconds to register on a fresh profile, more on a busy machine. */
const REGISTER_TIMEOUT_MS = 60_000;
const SETTLE_TIMEOUT_MS = 20_000;

/**
 * Starts an app and waits until its window is registered and its known text is in the tree (a
 * page or document loads after the window maps), then until two reads agree on the node count.
 */
export async function launchApp(desktop: Desktop, app: ToolkitApp): Promise<number> {
  return (await launchAppProcess(desktop, app)).pid;
}

/** Whether a process has ended: gone, or a zombie nobody reaps yet (a launcher's child whose launcher died first). */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** Signals a process that may have ended meanwhile. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    if (!ended(pid)) process.kill(pid, name);
  } catch {
    // Gone between the look and the signal.
  }
}

/**
 * Stops what launchAppProcess started: the process and, where it was a launcher (Firefox,
 * LibreOffice), the app it started; and resolves once both have exited, so the next app started
 * does not meet this one's window or profile (Writer and Calc share one). An app still running
 * after `timeoutMs` is killed outright.
 */
export async function stopAppProcess({ pid, child }: { pid: number; child: ChildProcess }, timeoutMs = 10_000): Promise<void> {
  const childEnded = (): boolean => child.exitCode !== null || child.signalCode !== null;
  if (!childEnded()) child.kill('SIGTERM');
  if (pid !== child.pid) signal(pid, 'SIGTERM');
  const both = (): true | undefined => (childEnded() && ended(pid) ? true : undefined);
  try {
    await waitFor(both, timeoutMs, `${pid} to exit`);
  } catch {
    for (const each of [pid, child.pid]) if (each !== undefined) signal(each, 'SIGKILL');
    await waitFor(both, timeoutMs, `${pid} to exit after SIGKILL`);
  }
}

/** As launchApp, with the process started (which may be a launcher above the app), to stop it after. */
export async function launchAppProcess(desktop: Desktop, app: ToolkitApp): Promise<{ pid: number; child: ChildProcess }> {
  const home = desktop.session.env['HOME'] as string;
  app.prepare?.(home);
  const child = desktop.session.launch(app.binary, app.args(home), { env: app.env ?? {} });
  const launched = child.pid as number;
  const pid = await waitFor(
    async () => (await desktop.platform.apps.list()).find((each) => descendsFrom(each.pid, launched) && each.windows.length > 0)?.pid,
    REGISTER_TIMEOUT_MS,
    `${app.name} to register with AT-SPI`,
  );
  let last = -1;
  await waitFor(
    async () => {
      const { root } = await desktop.engine.observe(pid, { fresh: true });
      const count = countNodes(root);
      const stable = count === last && treeText(root).includes(app.knownText);
      last = count;
      if (!stable) await new Promise((resolve) => setTimeout(resolve, 250));
      return stable ? true : undefined;
    },
    SETTLE_TIMEOUT_MS,
    `${app.name}'s tree to settle with its known text`,
  ).catch(() => undefined); // a missing text is the test's finding, not a launch failure
  return { pid, child };
}

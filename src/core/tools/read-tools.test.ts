import { beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_PID, NOTES_PID } from '../platform/fake/fake-platform';
import { createToolRegistry } from '../agent/tool-registry/registry';
import type { ElementMatch } from './find';
import type { ToolRegistry } from '../agent/tool-registry/registry';
import { fakeContext, type FakeContext } from './fake-context';

let registry: ToolRegistry;
let context: FakeContext;

beforeEach(() => {
  registry = createToolRegistry();
  context = fakeContext();
});

const call = (name: string, args: unknown) => registry.call(name, JSON.stringify(args), context);

async function idOf(name: string, role?: string): Promise<string> {
  const result = await call('ui_find', { name, ...(role === undefined ? {} : { role }) });
  const first = (result.data as { matches: ElementMatch[] }).matches[0];
  if (first === undefined) throw new Error(`no ${name}`);
  return first.id;
}

describe('an id that is not in the tree', () => {
  it("fails ui_tree, ui_find and ui_read with the engine's own message and candidates", async () => {
    const volume = await idOf('Volume', 'slider');
    const typo = `${volume.slice(0, -1)}${volume.endsWith('q') ? 'r' : 'q'}`;
    const acted = await call('ui_action', { action: 'click', id: typo });
    const engineMessage = (acted.data as { error: { message: string } }).error.message;
    expect(engineMessage).toContain(`[${volume}] slider "Volume"`);
    for (const [tool, args] of [
      ['ui_read', { id: typo }],
      ['ui_tree', { rootId: typo }],
      ['ui_find', { id: typo }],
    ] as const) {
      const result = await call(tool, args);
      expect(result).toMatchObject({ success: false, message: `NODE_NOT_FOUND: ${engineMessage}` });
    }
    // A name that only looks like the id string is no candidate.
    const named = await call('ui_read', { id: 'volume' });
    expect(named.message).not.toContain(volume);
  });
});

describe('ui_tree', () => {
  it('prints the compact tree of the target app, never a secret value', async () => {
    context.platform.app(FIXTURE_PID).get('password').value = 'hunter2';
    const result = await call('ui_tree', {});
    expect(result.success).toBe(true);
    expect(result.message).toMatch(/^# Deskpilot Fixture \(pid \d+\)\n\w{5} window Deskpilot Fixture \(focused\)\n/);
    expect(result.message).toMatch(/checkbox Enable feature\n/);
    expect(result.message).toMatch(/slider Volume = 50/);
    expect(result.message).not.toContain('hunter2');
  });

  it('keeps to a budget with a truncation marker, and starts under a root id', async () => {
    const small = await call('ui_tree', { maxNodes: 5 });
    // Five node lines, besides the header and the notes on what was cut.
    expect(small.message.split('\n').filter((line) => !line.includes('truncated') && !line.startsWith('# ') && !line.startsWith('To see'))).toHaveLength(5);
    expect(small.message).toMatch(/… truncated: \d+ more under/);
    const list = await call('ui_tree', { rootId: await idOf('Items', 'list') });
    expect(list.message.split('\n')[1]).toMatch(/list Items/);
    expect(list.message).not.toContain('Volume');
  });

  it('reads another app by pid and reports a missing root id or dead pid as results', async () => {
    expect((await call('ui_tree', { pid: NOTES_PID })).message).toMatch(/window Notes/);
    const missing = await call('ui_tree', { rootId: 'zzz' });
    expect(missing).toMatchObject({ success: false });
    expect(missing.message).toMatch(/^NODE_NOT_FOUND: node not found: 'zzz' is not in the tree of pid \d+/);
    expect((await call('ui_tree', { pid: 999 })).message).toBe(
      'PROCESS_EXITED: process not running (pid 999). The app has exited or the pid is wrong; run ui_apps for the running apps and their pids.',
    );
  });

  it('says what to do when there is no target app', async () => {
    context.targetPid = undefined;
    expect((await call('ui_tree', {})).message).toMatch(/^VALIDATION: no target app: give 'pid' or 'app' .*ui_apps lists the running apps/);
  });
});

describe('ui_find', () => {
  it('finds by role and fuzzy name, best first, with ids, values and scores', async () => {
    const result = await call('ui_find', { role: 'slider', name: 'volum' });
    const matches = (result.data as { matches: ElementMatch[] }).matches;
    expect(matches).toHaveLength(1);
    expect(matches[0]).toMatchObject({ role: 'slider', name: 'Volume', value: 50, visible: true });
    expect(matches[0]?.score).toBeGreaterThan(0.8);
    expect(result.message).toMatch(/\w{5} slider Volume = 50 score/);
  });

  it('finds by role alone with a limit, marking nodes that are not showing', async () => {
    const result = await call('ui_find', { role: 'listitem', limit: 30 });
    const matches = (result.data as { matches: ElementMatch[] }).matches;
    expect(matches).toHaveLength(30);
    expect(matches.filter((match) => !match.visible).length).toBeGreaterThan(0);
    expect(result.message).toContain('(not showing)');
  });

  it('finds by text and by description, and looks one node up by id', async () => {
    const byText = await call('ui_find', { text: 'Ready' });
    expect((byText.data as { matches: ElementMatch[] }).matches[0]).toMatchObject({ role: 'label', name: 'Ready' });
    // The fixture has no descriptions, so a description query finds nothing rather than everything.
    // No match is an answer, not a failure: the message says so and what to try next.
    const none = await call('ui_find', { role: 'button', description: 'counts clicks' });
    expect(none).toMatchObject({ success: true, data: { matches: [] } });
    expect(none.message).toMatch(/^no matches in Deskpilot Fixture \(pid \d+\); try a looser name, only a role, or ui_tree$/);
    const id = await idOf('Name', 'textfield');
    const byId = await call('ui_find', { id });
    expect((byId.data as { matches: ElementMatch[] }).matches).toEqual([expect.objectContaining({ id, role: 'textfield', name: 'Name', score: 1 })]);
  });

  it('leaves out secret values and needs at least one criterion', async () => {
    context.platform.app(FIXTURE_PID).get('password').value = 'hunter2';
    const secret = await call('ui_find', { name: 'Password' });
    expect((secret.data as { matches: ElementMatch[] }).matches[0]).not.toHaveProperty('value');
    expect(JSON.stringify(secret)).not.toContain('hunter2');
    expect((await call('ui_find', {})).message).toContain('give at least one of id, role, name, description or text');
  });
});

describe('ui_read', () => {
  it('reads a subtree whole, up to a budget', async () => {
    const listId = await idOf('Items', 'list');
    const full = await call('ui_read', { id: listId, maxChars: 50_000 });
    expect(full.message).toContain('Item 200');
    expect(full.data).toMatchObject({ id: listId, role: 'list', name: 'Items', truncated: false });
    const cut = await call('ui_read', { id: listId, maxChars: 100 });
    expect(cut.message).toMatch(/… truncated: \d+ more characters; read on with offset \d+$/);
    expect(cut.data).toMatchObject({ truncated: true });
  });

  it('reads a value, and never a secret value', async () => {
    const app = context.platform.app(FIXTURE_PID);
    app.get('name').value = 'Ada Lovelace';
    app.get('password').value = 'hunter2';
    expect((await call('ui_read', { id: await idOf('Name', 'textfield') })).message).toBe('Name\nAda Lovelace');
    const secret = await call('ui_read', { id: await idOf('Password') });
    expect(secret.message).toBe('Password\n(secret field; its value is never read)');
    expect(JSON.stringify(secret)).not.toContain('hunter2');
  });
});

describe('ui_apps and ui_focus_app', () => {
  it('lists apps with the frontmost app and target marked', async () => {
    const result = await call('ui_apps', {});
    expect(result.message).toBe(
      `pid ${FIXTURE_PID} "Deskpilot Fixture" (frontmost, target); windows: "Deskpilot Fixture" (focused)\npid ${NOTES_PID} "Notes"; windows: "Notes"`,
    );
  });

  it('retargets by name or pid and raises the window, saying so', async () => {
    context.platform.frontmostPid = FIXTURE_PID;
    const byName = await call('ui_focus_app', { name: 'notes' });
    expect(byName.success).toBe(true);
    expect(byName.message).toMatch(/target is now "Notes" \(pid 4243\).*window is now in front/);
    expect(byName.data).toMatchObject({ raised: true });
    expect(context.targetPid).toBe(NOTES_PID);
    expect(context.platform.frontmostPid).toBe(NOTES_PID);
    expect((await call('ui_tree', {})).message).toMatch(/window Notes/);
    await call('ui_focus_app', { pid: FIXTURE_PID });
    expect(context.targetPid).toBe(FIXTURE_PID);
    expect(context.platform.activations).toEqual([NOTES_PID, FIXTURE_PID]);
  });

  it('says truthfully when the window could not be raised, and still retargets', async () => {
    context.platform.activatable = false;
    const refused = await call('ui_focus_app', { name: 'notes' });
    expect(refused).toMatchObject({ success: true, data: { raised: false } });
    expect(refused.message).toMatch(/could not be brought to the front/);
    expect(context.targetPid).toBe(NOTES_PID);
    const { activate: _activate, ...apps } = context.platform.apps;
    Object.assign(context.platform, { apps });
    expect((await call('ui_focus_app', { pid: FIXTURE_PID })).message).toMatch(/was not raised: this platform cannot raise windows/);
  });

  it('reports an unknown app with the running ones, and leaves the target alone', async () => {
    const result = await call('ui_focus_app', { name: 'Spreadsheet' });
    expect(result.success).toBe(false);
    expect(result.message).toBe(`no running app named "Spreadsheet"; running: ${FIXTURE_PID} "Deskpilot Fixture", ${NOTES_PID} "Notes"`);
    expect((await call('ui_focus_app', { pid: 1 })).message).toMatch(/^no running app with pid 1/);
    expect(context.targetPid).toBe(FIXTURE_PID);
  });
});

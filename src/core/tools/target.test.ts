import { describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../platform/fake/fake-platform';
import { buildTree } from '../ui/ids';
import { AppAllowList } from './allow-list';
import type { AppInfo } from '../../shared/ui-node';
import { AmbiguousAppError, matchApp, nodeById, resolveApp } from './target';

describe('resolveApp', () => {
  it('takes the pid, else the best name match, else the target app', async () => {
    const platform = new FakePlatform();
    const scope = { platform, targetPid: FIXTURE_PID };
    expect((await resolveApp(scope, { pid: NOTES_PID })).name).toBe('Notes');
    expect((await resolveApp(scope, { app: 'notes' })).pid).toBe(NOTES_PID);
    expect((await resolveApp(scope, {})).pid).toBe(FIXTURE_PID);
  });

  it('says which apps run when no name matches, and asks for a target where there is no default', async () => {
    const platform = new FakePlatform();
    await expect(resolveApp({ platform, targetPid: undefined }, { app: 'gimp' })).rejects.toThrow(
      /no running app matches 'gimp'; running: Deskpilot Fixture, Notes/,
    );
    await expect(resolveApp({ platform, targetPid: undefined }, {})).rejects.toThrow(/give 'pid' or 'app'/);
  });

  it('gives a dead pid the same PROCESS_EXITED everywhere, whether it was named or is the target', async () => {
    const platform = new FakePlatform();
    platform.kill(NOTES_PID);
    await expect(resolveApp({ platform, targetPid: undefined }, { pid: NOTES_PID })).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    await expect(resolveApp({ platform, targetPid: NOTES_PID }, {})).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
  });

  it("refuses Deskpilot's own pids and hides them from name matches", async () => {
    const platform = new FakePlatform();
    await expect(resolveApp({ platform, targetPid: undefined, ownPids: [NOTES_PID] }, { pid: NOTES_PID })).rejects.toMatchObject({
      data: { reason: 'own_app' },
    });
    await expect(resolveApp({ platform, targetPid: undefined, ownPids: [NOTES_PID] }, { app: 'Notes' })).rejects.toThrow(/no running app matches/);
  });

  it('applies an allow-list before saying anything else about a pid', async () => {
    const platform = new FakePlatform();
    const allowList = new AppAllowList(['notes']);
    platform.kill(FIXTURE_PID);
    await expect(resolveApp({ platform, targetPid: undefined, allowList }, { pid: FIXTURE_PID })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(resolveApp({ platform, targetPid: undefined, allowList }, { app: 'fixture' })).rejects.toThrow(/running: Notes$/);
    expect((await resolveApp({ platform, targetPid: undefined, allowList }, { app: 'notes' })).pid).toBe(NOTES_PID);
  });
});

describe('nodeById', () => {
  it('gives the node, and NODE_NOT_FOUND with the closest ids otherwise', async () => {
    const platform = new FakePlatform();
    const { root } = buildTree(await platform.accessibility.getTree(FIXTURE_PID, {}));
    const child = root.children?.[0];
    if (child === undefined) throw new Error('the fixture has children');
    expect(nodeById(root, child.id, FIXTURE_PID)).toBe(child);
    expect(() => nodeById(root, `${child.id}x`, FIXTURE_PID)).toThrow(expect.objectContaining({ code: 'NODE_NOT_FOUND' }));
  });
});

describe('matchApp', () => {
  const writer: AppInfo = {
    pid: 10,
    name: 'soffice',
    windows: [{ title: 'Untitled 1 - LibreOffice Writer' }],
    aliases: ['soffice.bin', 'libreoffice-writer', 'LibreOffice Writer', 'libreoffice-calc', 'LibreOffice Calc'],
    kinds: ['Word Processor', 'Spreadsheet'],
  };
  const textEditor: AppInfo = {
    pid: 20,
    name: 'gnome-text-editor',
    windows: [{ title: 'New Document' }],
    aliases: ['gnome-text-editor', 'org.gnome.TextEditor', 'Text Editor'],
    kinds: ['Text Editor', 'write', 'notepad'],
  };
  const mousepad: AppInfo = { pid: 30, name: 'Mousepad', windows: [{ title: 'Untitled 1 - Mousepad' }], kinds: ['Text Editor'] };
  const apps = [writer, textEditor, mousepad];

  it('finds apps by the names their desktop files give them', () => {
    expect(matchApp(apps, 'writer')?.pid).toBe(10);
    expect(matchApp(apps, 'libreoffice')?.pid).toBe(10);
    expect(matchApp(apps, 'calc')?.pid).toBe(10);
    expect(matchApp(apps, 'soffice.bin')?.pid).toBe(10);
    // The Name "Text Editor" outweighs Mousepad's GenericName of the same words.
    expect(matchApp(apps, 'text editor')?.pid).toBe(20);
    expect(matchApp(apps, 'notepad')?.pid).toBe(20);
    expect(matchApp(apps, 'mousepad')?.pid).toBe(30);
  });

  it('refuses to pick between two apps a name fits equally, naming both', () => {
    const other: AppInfo = { ...mousepad, pid: 31 };
    expect(() => matchApp([mousepad, other], 'mousepad')).toThrow(AmbiguousAppError);
    expect(() => matchApp([mousepad, other], 'mousepad')).toThrow(/pid 30 "Mousepad", pid 31 "Mousepad"/);
    // Only a kind in common: still two candidates, still a question.
    expect(() => matchApp([mousepad, { ...textEditor, aliases: [] }], 'text editor')).toThrow(AmbiguousAppError);
  });

  it('counts one app listed twice (two buses, one pid) once', () => {
    expect(matchApp([mousepad, { ...mousepad }], 'mousepad')?.pid).toBe(30);
  });
});

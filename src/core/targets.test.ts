import { describe, expect, it } from 'vitest';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from './platform/fake/fake-platform';
import { findTargetApp, subtreeOf } from './targets';
import { buildTree } from './ui/ids';

describe('findTargetApp', () => {
  it('takes the pid, else the best name match, else the frontmost app', async () => {
    const platform = new FakePlatform();
    expect((await findTargetApp(platform, { pid: NOTES_PID })).name).toBe('Notes');
    expect((await findTargetApp(platform, { app: 'notes' })).pid).toBe(NOTES_PID);
    expect((await findTargetApp(platform, {})).pid).toBe(FIXTURE_PID);
  });

  it('says which apps run when no name matches, with the caller’s hint for a dead pid', async () => {
    const platform = new FakePlatform();
    await expect(findTargetApp(platform, { app: 'gimp' })).rejects.toThrow(/no running app matches 'gimp'; running: Deskpilot Fixture, Notes/);
    platform.kill(NOTES_PID);
    await expect(findTargetApp(platform, { pid: NOTES_PID }, 'ui_apps lists them')).rejects.toThrow(`no running app has pid ${NOTES_PID}; ui_apps lists them`);
  });
});

describe('subtreeOf', () => {
  it('gives the whole tree without an id, the node with one, and NODE_NOT_FOUND with the closest ids otherwise', async () => {
    const platform = new FakePlatform();
    const { root } = buildTree(await platform.accessibility.getTree(FIXTURE_PID, {}));
    const child = root.children?.[0];
    if (child === undefined) throw new Error('the fixture has children');
    expect(subtreeOf(root, undefined, FIXTURE_PID)).toBe(root);
    expect(subtreeOf(root, child.id, FIXTURE_PID)).toBe(child);
    expect(() => subtreeOf(root, `${child.id}x`, FIXTURE_PID)).toThrow(expect.objectContaining({ code: 'NODE_NOT_FOUND' }));
  });
});

/**
 * The compact tree's budgeted read on a real Mac (issue 27): readChildren over TextEdit gives the
 * root, its windows and their children as the whole read builds them, and every node of an
 * outline read has the id the whole read gives it. Skipped off macOS, like the rest of test/macos.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import { createDarwinPlatform } from '../../src/core/platform/darwin';
import type { Platform } from '../../src/core/platform/types';
import type { RawNode } from '../../src/core/ui/ids';
import { walk } from '../../src/core/ui/tree-index';
import { macAccess, openTextEdit, treeWithWindow, type StartedApp } from './mac-session';

const access = await macAccess();

describe.skipIf(!access.run)('readChildren on a real Mac', () => {
  let platform: Platform;
  let textEdit: StartedApp;

  beforeAll(async () => {
    platform = await createDarwinPlatform();
    textEdit = await openTextEdit('Budgeted read\nsecond line');
  });
  afterAll(async () => {
    textEdit?.stop();
    await platform?.close();
  });

  it('reads the root and the windows as the whole read does, and an outline read keeps the whole read ids', async () => {
    const whole = await treeWithWindow(platform, textEdit.pid);
    const readChildren = platform.accessibility.readChildren?.bind(platform.accessibility);
    expect(readChildren).toBeDefined();
    const [[root]] = ((await readChildren?.(textEdit.pid, [{ ref: undefined, from: 0, count: 1 }])) ?? [[]]) as [[RawNode]];
    expect(root.childCount).toBe(whole.children?.length ?? 0);
    const [windows] = ((await readChildren?.(textEdit.pid, [{ ref: root.ref, from: 0, count: 10 }])) ?? [[]]) as [RawNode[]];
    const brief = (node: RawNode): unknown => [node.role, node.name, (node.ref as { path: number[] }).path];
    expect(windows.map(brief)).toEqual((whole.children ?? []).map(brief));

    const engine = new ActionEngine({ platform });
    const ids = new Set([...walk((await engine.observe(textEdit.pid, { fresh: true })).root)].map((node) => node.id));
    const outline = await engine.observeOutline(textEdit.pid, { maxReads: 40 });
    expect(outline).toBeDefined();
    const read = [...walk((outline as NonNullable<typeof outline>).root)];
    expect(read.length).toBeGreaterThan(3);
    expect(read.filter((node) => !ids.has(node.id)).map((node) => `${node.role} ${node.name}`)).toEqual([]);
  });
});

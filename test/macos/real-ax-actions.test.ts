/**
 * What a green real-Mac run must also prove (issue 29, point 9; issue 32, point 4), through the
 * real koffi backend: an Electron app's tree, window capture, text typed through CGEvent on a
 * German layout, menu shortcuts, and actions that leave the user's pointer, keyboard and front app
 * alone. Never runs beside real-ax.test.ts (the CI step passes --no-file-parallelism):
 * both move the focus.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import { createDarwinPlatform } from '../../src/core/platform/darwin';
import type { Platform } from '../../src/core/platform/types';
import type { UiNode } from '../../src/shared/ui-node';
import {
  flatten,
  macAccess,
  openApp,
  openElectronFixture,
  openTextEdit,
  osascriptDialog,
  ROOT,
  sleep,
  treeWithWindow,
  until,
  type StartedApp,
} from './mac-session';

const access = await macAccess();

describe.skipIf(!access.run)('macOS actions through the real backend', () => {
  let platform: Platform;
  let engine: ActionEngine;
  let textEdit: StartedApp & { file: string };
  const started: StartedApp[] = [];

  const textAreaId = async (): Promise<string> => {
    const tree = await engine.observe(textEdit.pid);
    const stack: UiNode[] = [tree.root];
    while (stack.length > 0) {
      const node = stack.pop() as UiNode;
      if (node.role === 'textarea') return node.id;
      stack.push(...(node.children ?? []));
    }
    throw new Error('no text area in TextEdit');
  };
  const documentText = async (): Promise<string> => {
    const tree = await platform.accessibility.getTree(textEdit.pid, { fresh: true });
    return String(flatten(tree).find((node) => node.role === 'textarea')?.value ?? '');
  };

  beforeAll(async () => {
    platform = await createDarwinPlatform();
    engine = new ActionEngine({ platform });
    textEdit = await openTextEdit();
    started.push(textEdit);
    await treeWithWindow(platform, textEdit.pid);
  }, 90_000);

  afterAll(async () => {
    for (const app of started) app.stop();
    await platform.close();
  });

  it("reads an Electron app's web content through the backend (AXManualAccessibility and the wait)", async () => {
    const fixture = openElectronFixture();
    started.push(fixture);
    const tree = await until(
      'the Electron page in the tree',
      async () => {
        const read = await platform.accessibility.getTree(fixture.pid, { fresh: true }).catch(() => undefined);
        return read !== undefined && flatten(read).some((node) => node.role === 'textarea') ? read : undefined;
      },
      30_000,
    );
    expect(flatten(tree).some((node) => node.platformRole.startsWith('AXWebArea'))).toBe(true);
    expect(flatten(tree).find((node) => node.role === 'textarea')?.name).toBe('Notes');
    // The password field is there, marked secret, with no value.
    expect(flatten(tree).find((node) => node.states.secret === true)?.value).toBeUndefined();
    fixture.stop();
  }, 60_000);

  it("captures TextEdit's window: RGBA pixels at the display's scale", async () => {
    await platform.apps.activate?.(textEdit.pid);
    const image = await platform.screen?.captureWindow(textEdit.pid);
    expect(image?.width).toBeGreaterThan(100);
    expect(image?.data.length).toBe((image?.width ?? 0) * (image?.height ?? 0) * 4);
    expect(image?.scale ?? 1).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('types through CGEvent on a German layout: every character as typed, none through nut-js', async () => {
    const binary = path.join(mkdtempSync(path.join(tmpdir(), 'deskpilot-input-source-')), 'input-source');
    execFileSync('swiftc', ['-O', '-o', binary, path.join(ROOT, 'test/macos/input-source.swift')], { stdio: 'inherit' });
    const previous = execFileSync(binary, ['select', 'com.apple.keylayout.German'], { encoding: 'utf8' }).trim();
    try {
      await platform.apps.activate?.(textEdit.pid);
      const area = await textAreaId();
      await engine.run(textEdit.pid, { action: 'set_value', id: area, value: '' });
      // The characters nut-js got wrong on German layouts (issue 29, point 3), and z/y, which swap places.
      const text = '@("zy';
      await platform.input.typeText(text);
      expect(platform.input.lastDriver).toBe('cgevent');
      expect(await until('the typed text', async () => ((await documentText()) === text ? text : undefined), 10_000)).toBe(text);
    } finally {
      execFileSync(binary, ['select', previous]);
    }
  }, 120_000);

  it("reads TextEdit's menu shortcuts and runs one by pressing its menu item, not by keys", async () => {
    const shortcuts = await platform.accessibility.shortcuts?.(textEdit.pid);
    expect(shortcuts?.map((shortcut) => shortcut.shortcut)).toEqual(expect.arrayContaining(['cmd+z', 'cmd+a', 'cmd+s']));
    const area = await textAreaId();
    await engine.run(textEdit.pid, { action: 'set_value', id: area, value: 'select me' });
    const result = await engine.run(textEdit.pid, { action: 'key', id: area, key: 'a', modifiers: ['cmd'] });
    expect(result).toMatchObject({ success: true, method: 'accessibility' });
  }, 60_000);

  it('types into TextEdit in the background through AXSelectedText: Finder stays in front (issue 32, point 4)', async () => {
    const area = await textAreaId();
    await engine.run(textEdit.pid, { action: 'set_value', id: area, value: 'Hello' });
    execFileSync('open', ['-a', 'Finder']);
    const finder = await until('Finder in front', async () => {
      const front = await platform.apps.frontmost();
      return front?.name === 'Finder' ? front : undefined;
    });
    const result = await engine.run(textEdit.pid, { action: 'type', id: area, text: ', world' });
    expect(result).toMatchObject({ success: true, method: 'accessibility' });
    // Where the caret was after the set is the app's: the text went in, wherever it stood.
    expect(await documentText()).toContain(', world');
    expect((await platform.apps.frontmost())?.pid).toBe(finder.pid);
  }, 60_000);

  it("confirms a dialog with Return as its default button's AXPress, with no key event (issue 32, point 4)", async () => {
    const dialog = osascriptDialog('display dialog "Deskpilot" buttons {"Cancel", "Go"} default button "Go"');
    started.push(dialog);
    await treeWithWindow(platform, dialog.pid);
    const exited = new Promise<number | null>((resolve) => dialog.child.on('exit', resolve));
    const result = await engine.run(dialog.pid, { action: 'key', key: 'return' });
    expect(result).toMatchObject({ method: 'accessibility' });
    // osascript exits 0 when a button other than Cancel was pressed.
    expect(await Promise.race([exited, sleep(10_000).then(() => 'still open')])).toBe(0);
  }, 60_000);

  it('Calculator: a click on a button is AXPress, never a synthetic click', async () => {
    const calculator = await openApp('Calculator');
    started.push(calculator);
    const tree = await engine.observe(calculator.pid);
    const seven = [...flattenUi(tree.root)].find((node) => node.role === 'button' && ['7', 'seven'].includes(node.name.trim().toLowerCase()));
    expect(seven).toBeDefined();
    const result = await engine.run(calculator.pid, { action: 'click', id: seven?.id });
    expect(result).toMatchObject({ success: true, method: 'accessibility' });
  }, 60_000);
});

function* flattenUi(node: UiNode): Generator<UiNode> {
  yield node;
  for (const child of node.children ?? []) yield* flattenUi(child);
}

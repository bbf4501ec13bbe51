import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import { AXError } from './ax-errors';
import { harness } from './testing/setup';
import { electronApp, sampleApp, type FakeApp } from './testing/fake-world';

const names = (node: RawNode): string[] => [node.name, ...(node.children ?? []).flatMap(names)];

describe('Electron and Chromium enablement', () => {
  it('sets AXManualAccessibility = kCFBooleanTrue on the app element, then polls until web content appears', async () => {
    const app = electronApp();
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(777);
    const set = test.fake.callsOf('AXUIElementSetAttributeValue')[0];
    expect(set?.args.slice(1)).toEqual(['AXManualAccessibility', { kind: 'boolean', value: true }]);
    expect(test.sleeps).toEqual([100, 100]);
    expect(names(tree)).toContain('Send');
    expect(tree.children?.[0]?.children?.[0]?.children?.[0]).toMatchObject({ role: 'document', platformRole: 'AXWebArea' });
    // Browsers only: AXEnhancedUserInterface slows window animations, so Electron does not get it.
    expect(app.appSets).toEqual(['AXManualAccessibility']);
    await test.finish();
  });

  it('enables once per pid', async () => {
    const app = electronApp();
    const test = await harness([app]);
    await test.platform.accessibility.getTree(777);
    await test.platform.accessibility.getTree(777);
    expect(app.appSets).toEqual(['AXManualAccessibility']);
    await test.finish();
  });

  it('ignores kAXErrorAttributeUnsupported (old Electron, and every AppKit app) and does not wait', async () => {
    const app = { ...electronApp(), electron: { readsBeforeTree: 0, content: [], setCode: AXError.AttributeUnsupported } };
    const test = await harness([app, sampleApp()]);
    await expect(test.platform.accessibility.getTree(777)).resolves.toMatchObject({ name: 'Slack' });
    await expect(test.platform.accessibility.getTree(501, { maxNodes: 5 })).resolves.toMatchObject({ name: 'Notes' });
    expect(test.sleeps).toEqual([]);
    await test.finish();
  });

  it('sets AXEnhancedUserInterface for a Chromium browser, known by its bundle id, with no apps.list() before', async () => {
    const chrome = { ...sampleApp(900), name: 'Google Chrome', bundleId: 'com.google.Chrome' };
    const test = await harness([chrome]);
    await test.platform.accessibility.getTree(900, { maxNodes: 5 });
    expect(chrome.appSets).toEqual(['AXManualAccessibility', 'AXEnhancedUserInterface']);
    await test.finish();
  });

  it('without NSWorkspace a browser is read as a plain app instead of failing the tree read', async () => {
    const chrome = { ...sampleApp(900), name: 'Google Chrome', bundleId: 'com.google.Chrome' };
    const test = await harness([chrome]);
    test.fake.objc.getClass = () => null;
    await expect(test.platform.accessibility.getTree(900, { maxNodes: 5 })).resolves.toMatchObject({ name: 'Google Chrome' });
    expect(chrome.appSets).toEqual(['AXManualAccessibility']);
    await test.finish();
  });

  it('a browser that takes AXEnhancedUserInterface is polled until its web content appears', async () => {
    const electron = electronApp(901).electron as NonNullable<FakeApp['electron']>;
    const chrome: FakeApp = {
      ...electronApp(901),
      name: 'Google Chrome',
      bundleId: 'com.google.Chrome',
      electron: { ...electron, switch: 'AXEnhancedUserInterface' },
    };
    const test = await harness([chrome]);
    const tree = await test.platform.accessibility.getTree(901);
    expect(chrome.appSets).toEqual(['AXManualAccessibility', 'AXEnhancedUserInterface']);
    expect(test.sleeps).toEqual([100, 100]);
    expect(names(tree)).toContain('Send');
    await test.finish();
  });

  it('a hung Electron app fails with TIMEOUT instead of being polled forever', async () => {
    const app = { ...electronApp(), hung: true };
    const test = await harness([app]);
    await expect(test.platform.accessibility.getTree(777)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(test.sleeps).toEqual([]);
    await test.finish();
  });
});

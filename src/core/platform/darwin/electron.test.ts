import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import { AXError } from './ax-errors';
import { harness } from './testing/setup';
import { button, electronApp, sampleApp, type FakeApp } from './testing/fake-world';

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
    // Set once, then once more when the web area showed (cua#3783). Browsers only get AXEnhancedUserInterface: it slows window animations.
    expect(app.appSets).toEqual(['AXManualAccessibility', 'AXManualAccessibility']);
    await test.finish();
  });

  it('enables once per pid once the web content was seen', async () => {
    const app = electronApp();
    const test = await harness([app]);
    await test.platform.accessibility.getTree(777);
    await test.platform.accessibility.getTree(777);
    expect(app.appSets).toEqual(['AXManualAccessibility', 'AXManualAccessibility']);
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
    expect(chrome.appSets).toEqual(['AXManualAccessibility', 'AXEnhancedUserInterface', 'AXEnhancedUserInterface']);
    expect(test.sleeps).toEqual([100, 100]);
    expect(names(tree)).toContain('Send');
    await test.finish();
  });

  it("waits up to about 4 s for a cold app's web area, then sets the switch again, which attaches the rest (cua#3783; issue 20, point 4)", async () => {
    const app = electronApp();
    app.electron = { ...(app.electron as NonNullable<FakeApp['electron']>), readsBeforeTree: 0, appearsAfterMs: 2800, lateContent: [button('Editor')] };
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(777);
    expect(names(tree)).toEqual(expect.arrayContaining(['Send', 'Editor']));
    expect(test.sleeps).toEqual(Array<number>(28).fill(100));
    // Never set again while waiting (that restarts Electron's debounce, openwork#4595); once more when the web area showed.
    expect(app.appSets).toEqual(['AXManualAccessibility', 'AXManualAccessibility']);
    await test.finish();
  });

  it('a switch set before the window showed is ignored (cotabby#19): a miss is not remembered, and later reads set it again without waiting again', async () => {
    const app = electronApp();
    app.electron = { ...(app.electron as NonNullable<FakeApp['electron']>), readsBeforeTree: 0, shownAtMs: 5000, appearsAfterMs: 2000 };
    const test = await harness([app]);
    expect(names(await test.platform.accessibility.getTree(777))).not.toContain('Send');
    const waited = test.sleeps.length;
    expect(waited).toBe(40);
    test.fake.world.clockMs = 6000;
    expect(names(await test.platform.accessibility.getTree(777))).not.toContain('Send');
    expect(test.sleeps).toHaveLength(waited);
    expect(app.appSets).toEqual(['AXManualAccessibility', 'AXManualAccessibility']);
    test.fake.world.clockMs = 8500;
    expect(names(await test.platform.accessibility.getTree(777))).toContain('Send');
    await test.platform.accessibility.getTree(777);
    // Set once more when the content showed, and never after.
    expect(app.appSets).toEqual(['AXManualAccessibility', 'AXManualAccessibility', 'AXManualAccessibility']);
    await test.finish();
  });

  it('an agent reading every 100 ms after a miss does not keep restarting the debounce: the switch is set again only after 4 s (issue 29, point 7)', async () => {
    const app = electronApp();
    app.electron = { ...(app.electron as NonNullable<FakeApp['electron']>), readsBeforeTree: 0, shownAtMs: 5000, appearsAfterMs: 2000 };
    const test = await harness([app]);
    expect(names(await test.platform.accessibility.getTree(777))).not.toContain('Send');
    let found = -1;
    for (let read = 0; read < 60 && found < 0; read += 1) {
      test.fake.world.clockMs = 5000 + read * 100;
      if (names(await test.platform.accessibility.getTree(777)).includes('Send')) found = read;
    }
    // Set at 0 (before the window showed), again at 5000, and once more when the content showed at 7000.
    expect(found).toBe(20);
    expect(app.appSets).toEqual(['AXManualAccessibility', 'AXManualAccessibility', 'AXManualAccessibility']);
    await test.finish();
  });

  it('an abort ends the wait for web content at once, and the next read only looks (issue 29, point 11)', async () => {
    const app = electronApp();
    app.electron = { ...(app.electron as NonNullable<FakeApp['electron']>), readsBeforeTree: 1000 };
    const controller = new AbortController();
    let clock = 0;
    let sleeps = 0;
    const test = await harness(
      [app],
      {},
      {
        now: () => clock,
        sleep: (ms) => {
          clock += ms;
          sleeps += 1;
          if (sleeps === 3) controller.abort();
          return Promise.resolve();
        },
      },
    );
    await expect(test.platform.accessibility.getTree(777, { signal: controller.signal })).rejects.toThrow();
    expect(sleeps).toBe(3);
    await test.platform.accessibility.getTree(777);
    expect(sleeps).toBe(3);
    await test.finish();
  });

  it('turns AXEnhancedUserInterface off again in the browsers it was set on when the platform closes (issue 20, point 9)', async () => {
    const electron = electronApp(901).electron as NonNullable<FakeApp['electron']>;
    const chrome: FakeApp = {
      ...electronApp(901),
      name: 'Google Chrome',
      bundleId: 'com.google.Chrome',
      electron: { ...electron, switch: 'AXEnhancedUserInterface' },
    };
    const slack = electronApp();
    const test = await harness([chrome, slack]);
    await test.platform.accessibility.getTree(901);
    await test.platform.accessibility.getTree(777);
    await test.finish();
    expect(chrome.appSets?.at(-1)).toBe('AXEnhancedUserInterface=false');
    // Electron's own switch has no side effect and stays on.
    expect(slack.appSets?.some((name) => name.endsWith('=false'))).toBe(false);
  });

  it('a hung Electron app fails with TIMEOUT instead of being polled forever', async () => {
    const app = { ...electronApp(), hung: true };
    const test = await harness([app]);
    await expect(test.platform.accessibility.getTree(777)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(test.sleeps).toEqual([]);
    await test.finish();
  });
});

import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../../shared/ui-node';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { harness } from './testing/setup';
import { sampleApp, type FakeApp, type FakeNode } from './testing/fake-world';

/** The user's own app, in front all along: an action done through AX must leave it there. */
const USER_APP = 777;

/**
 * Issue 32, point 4, through the engine as a model drives it: clicks are AXPress and values are
 * set through AXValue, with `method: 'accessibility'`, no CGEvent posted, no app activated and no
 * window raised. (Typing through AXSelectedText, Return as AXConfirm or the default button and
 * menu shortcuts as AXPress on their item are in accessible-input.test.ts.)
 */
async function setUp(): Promise<{ app: FakeApp; engine: ActionEngine; id: (name: string) => Promise<string>; test: Awaited<ReturnType<typeof harness>> }> {
  const app = sampleApp();
  for (const window of app.windows) window.children = (window.children ?? []).filter((child) => child.role !== 'AXScrollArea');
  const test = await harness([app, { pid: USER_APP, name: 'Mail', windows: [] }], { focusedPid: USER_APP });
  const engine = new ActionEngine({ platform: test.platform, clock: new FakeClock() });
  const id = async (name: string): Promise<string> => {
    const stack: UiNode[] = [(await engine.observe(app.pid)).root];
    while (stack.length > 0) {
      const node = stack.pop() as UiNode;
      if (node.name === name && node.role !== 'window') return node.id;
      stack.push(...(node.children ?? []));
    }
    throw new Error(`no node ${name}`);
  };
  return { app, engine, id, test };
}

const child = (app: FakeApp, title: string): FakeNode => (app.windows[0]?.children ?? []).find((each) => each.title === title) as FakeNode;

function expectSilent(test: Awaited<ReturnType<typeof harness>>, app: FakeApp): void {
  expect(test.fake.posted).toEqual([]);
  expect(test.nut.calls).toEqual([]);
  expect(app.appSets?.filter((name) => name === 'AXFrontmost') ?? []).toEqual([]);
  expect(app.windows.flatMap((window) => window.log ?? [])).toEqual([]);
  expect(test.fake.world.focusedPid).toBe(USER_APP);
}

describe('darwin: clicks and values through accessibility before any CGEvent (issue 32, point 4)', () => {
  it('click: a button and a check box are pressed with AXPress, and the result says so', async () => {
    const { app, engine, id, test } = await setUp();
    expect(await engine.run(501, { action: 'click', id: await id('Save'), settleMs: 0 })).toMatchObject({ success: true, method: 'accessibility' });
    expect(child(app, 'Save').log).toEqual(['perform AXPress']);
    expect(await engine.run(501, { action: 'click', id: await id('Bold'), settleMs: 0 })).toMatchObject({ method: 'accessibility' });
    expect(child(app, 'Bold').log).toEqual(['perform AXPress']);
    expectSilent(test, app);
    await test.finish();
  });

  it('set_value: a text field and a slider are set through AXValue, in the background', async () => {
    const { app, engine, id, test } = await setUp();
    expect(await engine.run(501, { action: 'set_value', id: await id('Name'), value: 'Grace', settleMs: 0 })).toMatchObject({
      success: true,
      method: 'accessibility',
    });
    expect(child(app, 'Name')).toMatchObject({ value: 'Grace' });
    expect(child(app, 'Name').log).toContain('set AXValue');
    expect(await engine.run(501, { action: 'set_value', id: await id('Volume'), value: 0.8, settleMs: 0 })).toMatchObject({ method: 'accessibility' });
    expect(child(app, 'Volume')).toMatchObject({ value: 0.8 });
    expectSilent(test, app);
    await test.finish();
  });

  it('CGEvent only as the fallback: an element without AXPress is clicked with input, and the result says so', async () => {
    const { engine, id, test } = await setUp();
    const result = await engine.run(501, { action: 'click', id: await id('Custom'), settleMs: 0 });
    expect(result).toMatchObject({ success: true, method: 'input', driver: 'cgevent' });
    expect(test.fake.delivered.length).toBeGreaterThan(0);
    await test.finish();
  });
});

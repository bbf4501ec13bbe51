import { describe, expect, it } from 'vitest';
import { AXError, mapAxError } from './ax-errors';
import { harness } from './testing/setup';
import { sampleApp } from './testing/fake-world';

describe('AXError mapping', () => {
  const alive = () => true;
  const dead = () => false;

  it.each([
    [AXError.APIDisabled, alive, 'PERMISSION_DENIED'],
    [AXError.CannotComplete, alive, 'TIMEOUT'],
    [AXError.CannotComplete, dead, 'PROCESS_EXITED'],
    [AXError.InvalidUIElement, alive, 'NODE_NOT_FOUND'],
    [AXError.Failure, alive, 'ACTION_FAILED'],
    [AXError.NoValue, alive, 'ACTION_FAILED'],
    [AXError.AttributeUnsupported, alive, 'ACTION_FAILED'],
    [AXError.IllegalArgument, alive, 'ACTION_FAILED'],
  ])('%i → %s', (code, isAlive, expected) => {
    expect(mapAxError(code, 'AXUIElementCopyAttributeValue', 42, isAlive)).toMatchObject({ code: expected });
  });

  it('CannotComplete at once, long before the messaging timeout, is an app without accessibility, not a busy one', () => {
    const fast = mapAxError(AXError.CannotComplete, 'AXUIElementCopyMultipleAttributeValues', 42, alive, { elapsedMs: 3, timeoutMs: 1500 });
    expect(fast).toMatchObject({ code: 'UI_NOT_AVAILABLE', isRetryable: false, message: expect.stringContaining('does not seem to support accessibility') });
    const slow = mapAxError(AXError.CannotComplete, 'AXUIElementCopyMultipleAttributeValues', 42, alive, { elapsedMs: 1500, timeoutMs: 1500 });
    expect(slow).toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('busy') });
  });

  it('PERMISSION_DENIED says where to grant access', () => {
    expect(mapAxError(AXError.APIDisabled, 'x', 1, alive).message).toContain('System Settings → Privacy & Security → Accessibility');
  });

  it('a timeout is retryable and names the pid', () => {
    const error = mapAxError(AXError.CannotComplete, 'AXUIElementCopyMultipleAttributeValues', 42, alive);
    expect(error.isRetryable).toBe(true);
    expect(error.message).toContain('pid 42');
  });
});

describe('darwin errors from a real walk', () => {
  it('a hung app fails the tree read with TIMEOUT, after one bounded call', async () => {
    const app = { ...sampleApp(), hung: true };
    const test = await harness([app]);
    await expect(test.platform.accessibility.getTree(501)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')).toHaveLength(1);
    expect(test.fake.timeoutSeconds).toBe(1.5);
    await test.finish();
  });

  it('an app without accessibility support says so at once, and is listed as such (issue 20, point 9)', async () => {
    const test = await harness([{ ...sampleApp(), noAccessibility: true }], { focusedPid: 501 });
    await expect(test.platform.accessibility.getTree(501)).rejects.toMatchObject({
      code: 'UI_NOT_AVAILABLE',
      message: expect.stringContaining('does not seem to support accessibility'),
    });
    expect(test.fake.timeoutsSpent).toBe(0);
    expect(await test.platform.apps.list()).toEqual([
      { pid: 501, name: 'Notes (no accessibility, pid 501)', desktopId: 'com.example.notes', windows: [], frontmost: true },
    ]);
    await test.finish();
  });

  it('a pid that is gone is PROCESS_EXITED before any AX call', async () => {
    const app = { ...sampleApp(), dead: true };
    const test = await harness([app]);
    await expect(test.platform.accessibility.getTree(501)).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    expect(test.fake.callsOf('AXUIElementCopyMultipleAttributeValues')).toHaveLength(0);
    await test.finish();
  });

  it('an app that dies between the tree and the action is PROCESS_EXITED', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 5 });
    const save = tree.children?.[0]?.children?.[0];
    app.dead = true;
    await expect(test.platform.accessibility.press(save?.ref, {} as never)).rejects.toMatchObject({ code: 'PROCESS_EXITED' });
    await test.finish();
  });

  it('without the Accessibility grant every tree read is PERMISSION_DENIED', async () => {
    const test = await harness([sampleApp()], { granted: false });
    await expect(test.platform.accessibility.getTree(501)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await test.finish();
  });

  it('a hung app during press is TIMEOUT; CannotComplete after AXPress on a live app counts as pressed', async () => {
    const app = sampleApp();
    const test = await harness([app]);
    const tree = await test.platform.accessibility.getTree(501, { maxNodes: 5 });
    const save = tree.children?.[0]?.children?.[0];
    (app.windows[0]?.children?.[0] as { performResult?: Record<string, number> }).performResult = { AXPress: AXError.CannotComplete };
    expect(await test.platform.accessibility.press(save?.ref, {} as never)).toBe(true);
    app.hung = true;
    await expect(test.platform.accessibility.press(save?.ref, {} as never)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await test.finish();
  });
});

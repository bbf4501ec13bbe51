import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../shared/errors';
import type { UiActionResult } from '../../shared/ui-action';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { MAX_TYPED_KEYS } from '../platform/keymap';
import { ActionEngine } from './engine';

let platform: FakePlatform;
let clock: FakeClock;
let engine: ActionEngine;

beforeEach(() => {
  platform = new FakePlatform();
  clock = new FakeClock();
  engine = new ActionEngine({ platform, clock });
});

async function idOf(name: string, role?: string): Promise<string> {
  const { root } = await engine.observe(FIXTURE_PID);
  const match = findNodes(root, { name, ...(role === undefined ? {} : { role }) })[0];
  if (match === undefined) throw new Error(`no node named ${name}`);
  return match.node.id;
}

function expectLanded(result: UiActionResult, method: 'accessibility' | 'input'): void {
  expect(result.error).toBeUndefined();
  expect(result).toMatchObject({ success: true, method, changed: true });
}

describe('ActionEngine actions', () => {
  it('clicks through accessibility, then sees the new label on a re-found node', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Clicked 0 times') });
    expectLanded(result, 'accessibility');
    expect(result.nodeBefore?.name).toBe('Clicked 0 times');
    expect(result.nodeAfter?.name).toBe('Clicked 1 time');
    expect(result.changes).toEqual(['name: "Clicked 0 times" → "Clicked 1 time"']);
    expect(clock.sleeps).toEqual([80]);
    expect(platform.inputLog).toEqual([]);
  });

  it('falls back to a synthetic click at the centre when there is no native action', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Name', 'textfield') });
    expectLanded(result, 'input');
    // The pointer goes back where the user left it.
    expect(platform.inputLog).toEqual(['click 120,154', 'move 0,0']);
    expect(result).toMatchObject({ via: 'click', interrupted: true });
    expect(result.nodeAfter?.states.focused).toBe(true);
  });

  it('toggles a checkbox', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Enable feature') });
    expectLanded(result, 'accessibility');
    expect(result.nodeAfter?.states.checked).toBe(true);
  });

  it('sets a slider to a number and a text field to a string', async () => {
    const slider = await engine.run(FIXTURE_PID, { action: 'set_value', id: await idOf('Volume'), value: 75 });
    expectLanded(slider, 'accessibility');
    expect(slider.nodeAfter?.value).toBe(75);
    const text = await engine.run(FIXTURE_PID, { action: 'set_value', id: await idOf('Name', 'textfield'), value: 42 });
    expect(text.nodeAfter?.value).toBe('42');
  });

  it('types after focusing through accessibility', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await idOf('Name', 'textfield'), text: 'Ada' });
    expectLanded(result, 'input');
    expect(result.nodeAfter?.value).toBe('Ada');
    expect(platform.inputLog).toEqual(['type Ada']);
  });

  it('sends key combos with platform modifiers, focusing the node first', async () => {
    const id = await idOf('Name', 'textfield');
    await engine.run(FIXTURE_PID, { action: 'type', id, text: 'Ada' });
    await engine.run(FIXTURE_PID, { action: 'key', key: 'cmd+a', id });
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'backspace', id });
    expectLanded(result, 'input');
    expect(result.nodeAfter?.value).toBe('');
    expect(platform.inputLog).toEqual(['type Ada', 'key ctrl+a', 'key backspace']);
  });

  it('a key for a check box the app will not focus is refused, not sent after a click that would toggle it', async () => {
    platform.accessibility.focus = () => Promise.resolve(false);
    const id = await idOf('Enable feature', 'checkbox');
    const refused = await engine.run(FIXTURE_PID, { action: 'key', key: 'x', id });
    expect(refused).toMatchObject({ success: false, error: { code: 'ACTION_FAILED', message: expect.stringContaining('without pressing it') } });
    expect(platform.inputLog).toEqual([]);
    expect(findNodes((await engine.observe(FIXTURE_PID)).root, { name: 'Enable feature' })[0]?.node.states.checked).toBe(false);
    // A field is still focused by a click where the app refuses the request: the click only places the caret.
    await engine.run(FIXTURE_PID, { action: 'key', key: 'a', id: await idOf('Name', 'textfield') });
    expect(platform.inputLog[0]).toMatch(/^click /);
  });

  it('reports a key with no target node by whether the app changed', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'escape' });
    expect(result).toMatchObject({ success: true, method: 'input', nodeBefore: null, nodeAfter: null, changed: false });
  });

  it('already frontmost: keys go straight through, with no activation', async () => {
    const id = await idOf('Name', 'textfield');
    await engine.run(FIXTURE_PID, { action: 'type', id, text: 'Ada' });
    await engine.run(FIXTURE_PID, { action: 'key', key: 'return' });
    expect(platform.activations).toEqual([]);
    expect(platform.inputLog).toEqual(['type Ada', 'key return']);
  });

  it('a key with no id brings its app to the front first, then lands there', async () => {
    platform.frontmostPid = NOTES_PID;
    platform.app(NOTES_PID).focus('button');
    platform.app(FIXTURE_PID).focus('button');
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'return' });
    expect(result).toMatchObject({ success: true, method: 'input' });
    expect(platform.activations).toEqual([FIXTURE_PID]);
    expect(platform.inputLog).toEqual(['key return']);
    expect(platform.app(FIXTURE_PID).clicks).toBe(1);
    expect(platform.app(NOTES_PID).clicks).toBe(0);
  });

  it('type and key with an id activate the app before focusing, so the text lands in it', async () => {
    platform.frontmostPid = NOTES_PID;
    const id = await idOf('Name', 'textfield');
    const typed = await engine.run(FIXTURE_PID, { action: 'type', id, text: 'Ada' });
    expectLanded(typed, 'input');
    expect(typed.nodeAfter?.value).toBe('Ada');
    platform.frontmostPid = NOTES_PID;
    expect(await engine.run(FIXTURE_PID, { action: 'key', key: 'backspace', id })).toMatchObject({ success: true, nodeAfter: { value: 'Ad' } });
    expect(platform.activations).toEqual([FIXTURE_PID, FIXTURE_PID]);
    expect(platform.app(NOTES_PID).get('name').value ?? '').toBe('');
  });

  it('when activation fails, nothing is sent and the error says what was tried without naming the frontmost app', async () => {
    platform.frontmostPid = NOTES_PID;
    platform.activatable = false;
    platform.app(NOTES_PID).focus('button');
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'return' });
    expect(result).toMatchObject({
      success: false,
      method: 'input',
      nodeBefore: null,
      changed: false,
      error: { code: 'ACTION_FAILED', data: { pid: FIXTURE_PID } },
    });
    expect(result.error?.message).toContain(`pid ${FIXTURE_PID} is not the frontmost app and raising its window did not bring it to the front`);
    expect(result.error?.message).not.toContain('Notes');
    expect(result.error?.message).not.toContain(String(NOTES_PID));
    const typed = await engine.run(FIXTURE_PID, { action: 'type', id: await idOf('Name', 'textfield'), text: 'Ada' });
    expect(typed.error?.message).toMatch(/^type not sent/);
    expect(platform.activations).toEqual([FIXTURE_PID, FIXTURE_PID]);
    expect(platform.inputLog).toEqual([]);
    expect(platform.app(NOTES_PID).clicks).toBe(0);
    expect(platform.app(FIXTURE_PID).get('name').value ?? '').toBe('');
  });

  it('a platform without activate refuses keys for an app in the back, and nothing is frontmost counts as in the back', async () => {
    const { activate: _activate, ...apps } = platform.apps;
    Object.assign(platform, { apps });
    platform.frontmostPid = 0;
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'return' });
    expect(result.error?.message).toContain('this platform cannot raise its window');
    expect(platform.inputLog).toEqual([]);
  });

  it('text no key can type is inserted without activating the app', async () => {
    platform.frontmostPid = NOTES_PID;
    platform.input.canType = () => false;
    platform.accessibility.insertText = () => Promise.resolve(true);
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await idOf('Name', 'textfield'), text: '✓' });
    expect(result).toMatchObject({ method: 'accessibility' });
    expect(platform.activations).toEqual([]);
  });

  it('refuses a text too long to type as keys before asking for the keyboard, and inserts it where the element takes text', async () => {
    const asked: string[] = [];
    const asking = new ActionEngine({ platform, clock, askBeforeInput: (request) => (asked.push(request.via), Promise.resolve()) });
    const id = await idOf('Name', 'textfield');
    const text = 'é'.repeat(MAX_TYPED_KEYS + 1);
    const refused = await asking.run(FIXTURE_PID, { action: 'type', id, text });
    expect(refused.error).toMatchObject({ code: 'ACTION_FAILED', data: { reason: 'too-long-to-type', characters: MAX_TYPED_KEYS + 1 } });
    expect(refused.error?.message).toContain(`in parts of at most ${MAX_TYPED_KEYS} characters`);
    expect({ asked, input: platform.inputLog }).toEqual({ asked: [], input: [] });
    // Counted in characters, not UTF-16 units: the longest text allowed still goes as keys.
    const typed = await asking.run(FIXTURE_PID, { action: 'type', id, text: '😀'.repeat(MAX_TYPED_KEYS) });
    expect(typed).toMatchObject({ success: true, method: 'input', via: 'keys' });
    platform.accessibility.insertText = () => Promise.resolve(true);
    const inserted = await asking.run(FIXTURE_PID, { action: 'type', id, text });
    expect(inserted).toMatchObject({ method: 'accessibility', via: 'insert-text' });
    expect(asked).toEqual(['keys']);
  });

  it('stops typing between two keys once aborted, and reports the abort', async () => {
    const controller = new AbortController();
    const typeText = platform.input.typeText;
    platform.input.typeText = (text, signal) => {
      controller.abort();
      return typeText(text, signal);
    };
    const id = await idOf('Name', 'textfield');
    await expect(engine.run(FIXTURE_PID, { action: 'type', id, text: 'hello' }, controller.signal)).rejects.toThrow();
    expect(platform.app(FIXTURE_PID).get('name').value ?? '').toBe('');
  });

  it('nothing is sent once the ask is aborted during activation', async () => {
    platform.frontmostPid = NOTES_PID;
    const controller = new AbortController();
    platform.apps.activate = (pid) => {
      platform.frontmostPid = pid;
      controller.abort();
      return Promise.resolve(true);
    };
    await expect(engine.run(FIXTURE_PID, { action: 'key', key: 'return' }, controller.signal)).rejects.toThrow();
    expect(platform.inputLog).toEqual([]);
  });

  it('scrolls a list at its centre; the rows showing change', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'scroll', id: await idOf('Items', 'list'), direction: 'down', amount: 2 });
    expectLanded(result, 'input');
    expect(result.changes).toEqual(['contents changed']);
    expect(platform.inputLog).toEqual(['scroll down 2']);
    expect(platform.app(FIXTURE_PID).scrollOffset).toBe(6);
  });

  it('scroll that moves nothing is still a success', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'scroll', id: await idOf('Items', 'list'), direction: 'up' });
    expect(result).toMatchObject({ success: true, changed: false });
  });

  it('drags in 10 steps 16 ms apart and the drop zone changes', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'drag', id: await idOf('Drag me'), toId: await idOf('Drop here') });
    expectLanded(result, 'input');
    expect(platform.app(FIXTURE_PID).get('drop').name).toBe('Dropped: Drag me');
    // Ten steps after the first move, then the pointer back where the user left it.
    expect(platform.inputLog.filter((entry) => entry.startsWith('move'))).toHaveLength(12);
    expect(platform.inputLog.slice(-3)).toEqual(['move 625,250', 'up', 'move 0,0']);
    expect(clock.sleeps).toEqual([...Array(10).fill(16), 80]);
  });

  it('acts on the app it is given, not the frontmost one', async () => {
    const { root } = await engine.observe(NOTES_PID);
    const id = findNodes(root, { name: 'Enable feature' })[0]?.node.id as string;
    await engine.run(NOTES_PID, { action: 'click', id });
    expect(platform.app(NOTES_PID).get('toggle').checked).toBe(true);
    expect(platform.app(FIXTURE_PID).get('toggle').checked).toBe(false);
  });
});

describe('ActionEngine error rows', () => {
  it('node not found lists the closest candidates and does nothing', async () => {
    const id = await idOf('Enable feature');
    const typo = `${id.slice(0, -1)}${id.endsWith('z') ? 'y' : 'z'}`;
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: typo });
    expect(result).toMatchObject({ success: false, changed: false, nodeBefore: null, error: { code: 'NODE_NOT_FOUND' } });
    expect(result.error?.message).toContain(`node not found: '${typo}'`);
    // Nothing was sent, so the result claims no method.
    expect(result).not.toHaveProperty('method');
    expect(result.error?.data?.['candidates']).toContainEqual({ id, role: 'checkbox', name: 'Enable feature' });
    expect(platform.app(FIXTURE_PID).get('toggle').checked).toBe(false);
  });

  it('remembers what a vanished id was and suggests its successor', async () => {
    const old = await idOf('Clicked 0 times');
    await engine.run(FIXTURE_PID, { action: 'click', id: old });
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: old });
    expect(result.error?.message).toContain('it was button "Clicked 0 times"');
    expect(result.error?.message).toContain('button "Clicked 1 time"');
    expect(platform.app(FIXTURE_PID).clicks).toBe(1);
  });

  it('refuses an id that now names a different node (a hash collision), and does nothing', async () => {
    const id = await idOf('Volume');
    // Found by brute force: the same parent, role and index hash this name to Volume's id.
    const collidingName = 'Level 5357352';
    platform.app(FIXTURE_PID).get('slider').name = collidingName;
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 10 });
    expect(result).toMatchObject({ success: false, changed: false, error: { code: 'NODE_NOT_FOUND' } });
    expect(result.error?.message).toContain(`now names slider "${collidingName}", not the slider "Volume"`);
    expect(platform.app(FIXTURE_PID).get('slider').value).toBe(50);
    const retry = await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 10 });
    expect(retry.error?.code).toBe('NODE_NOT_FOUND');
    expect(platform.app(FIXTURE_PID).get('slider').value).toBe(50);
    // Once the model has seen the new tree, the id means the new node and works.
    await engine.observe(FIXTURE_PID);
    expect(await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 10 })).toMatchObject({ success: true });
  });

  it("a node salted in the whole tree keeps its id after the action (the re-read does not hand out another node's id)", async () => {
    // Found once by brute force (not here): this button name hashes, in the form, to Volume's
    // unsalted id. The button comes first, so the whole tree salts the slider.
    const collidingName = 'Save 1528800';
    const unsalted = await idOf('Volume');
    platform.app(FIXTURE_PID).get('button').name = collidingName;
    const button = await idOf(collidingName);
    const slider = await idOf('Volume');
    expect(button).toBe(unsalted);
    expect(slider).not.toBe(unsalted);
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id: slider, value: 75 });
    expectLanded(result, 'accessibility');
    expect(result.nodeAfter).toMatchObject({ id: slider, name: 'Volume', value: 75 });
    expect(result.changes).toEqual(['value: 50 → 75']);
    // The model can act on the id it was given back, and it still names the slider.
    const again = await engine.run(FIXTURE_PID, { action: 'set_value', id: result.nodeAfter?.id, value: 20 });
    expect(again).toMatchObject({ success: true, nodeAfter: { id: slider, name: 'Volume', value: 20 } });
    expect(platform.app(FIXTURE_PID).clicks).toBe(0);
  });

  it('drag destination not found', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'drag', id: await idOf('Drag me'), toId: 'nope' });
    expect(result.error?.code).toBe('DRAG_TARGET_NOT_FOUND');
    expect(result.error?.message).toMatch(/^drag destination node not found/);
    expect(platform.inputLog).toEqual([]);
  });

  it('set_value on something without a value is NOT_SETTABLE with no input fallback', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id: await idOf('Ready'), value: 'x' });
    expect(result).toMatchObject({
      success: false,
      method: 'accessibility',
      error: { code: 'NOT_SETTABLE', message: "element does not support set_value; try 'type'" },
    });
    expect(platform.inputLog).toEqual([]);
  });

  it('process exited between resolve and execute', async () => {
    const id = await idOf('Clicked 0 times');
    const getTree = platform.accessibility.getTree;
    platform.accessibility.getTree = async (pid, options) => {
      const tree = await getTree(pid, options);
      platform.kill(pid);
      return tree;
    };
    const result = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(result).toMatchObject({ success: false, error: { code: 'PROCESS_EXITED', message: `process not running (pid ${FIXTURE_PID})` } });
  });

  it('a dead pid fails cleanly', async () => {
    platform.kill(FIXTURE_PID);
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'a' });
    expect(result.error?.code).toBe('PROCESS_EXITED');
    expect(result.method).toBeUndefined();
  });

  it('missing required fields throw ValidationError before anything runs', async () => {
    let trees = 0;
    platform.accessibility.getTree = () => {
      trees += 1;
      throw new Error('must not be called');
    };
    await expect(engine.run(FIXTURE_PID, { action: 'type', id: 'a' })).rejects.toBeInstanceOf(ValidationError);
    await expect(engine.run(FIXTURE_PID, { action: 'drag', id: 'a' })).rejects.toThrow(/toId/);
    expect(trees).toBe(0);
  });

  it('an off-screen node cannot take synthetic input', async () => {
    const { root } = await engine.observe(FIXTURE_PID);
    const hidden = findNodes(root, { name: 'Item 150' })[0]?.node.id as string;
    const result = await engine.run(FIXTURE_PID, { action: 'scroll', id: hidden });
    expect(result.error).toMatchObject({ code: 'ACTION_FAILED' });
    expect(result.error?.message).toContain('not on screen');
  });

  it('an abort stops the action and nothing acts after it', async () => {
    const id = await idOf('Clicked 0 times');
    const controller = new AbortController();
    controller.abort();
    await expect(engine.run(FIXTURE_PID, { action: 'click', id }, controller.signal)).rejects.toThrow();
    expect(platform.app(FIXTURE_PID).clicks).toBe(0);
  });

  it('an abort mid-drag still releases the mouse button', async () => {
    const controller = new AbortController();
    const sleep = clock.sleep.bind(clock);
    clock.sleep = (ms, signal) => {
      if (clock.sleeps.length === 3) controller.abort();
      return sleep(ms, signal);
    };
    const request = { action: 'drag', id: await idOf('Drag me'), toId: await idOf('Drop here') };
    await expect(engine.run(FIXTURE_PID, request, controller.signal)).rejects.toThrow();
    expect(platform.inputLog.at(-1)).toBe('up');
    expect(platform.app(FIXTURE_PID).get('drop').name).toBe('Drop here');
  });
});

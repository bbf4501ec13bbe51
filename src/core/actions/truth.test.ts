/**
 * The engine tells the truth about what an action did: late effects are waited for (counted in
 * looks on a fake clock), closing a window is a success, and the node reported is the one acted on.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { DeskpilotError, ProcessExitedError, UnsupportedOperationError } from '../../shared/errors';
import type { Role, UiStates } from '../../shared/ui-node';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { RawNode } from '../ui/ids';
import { findNodes } from '../ui/query';
import { walk } from '../ui/tree-index';
import { ActionEngine } from './engine';
import { SETTLE_BOUND_MS } from './settle';

interface Scripted {
  role: Role;
  name: string;
  key: string;
  value?: string;
  states?: Partial<UiStates>;
  actions?: string[];
  children?: Scripted[];
}

/** A desktop whose one app shows `scene()`; pressing a node runs `onPress[key]`. */
class ScriptedApp {
  scene: () => Scripted;
  readonly onPress = new Map<string, () => void>();
  readonly pressed: string[] = [];
  readonly selected: string[] = [];

  constructor(scene: () => Scripted) {
    this.scene = scene;
  }

  raw(node: Scripted = this.scene()): RawNode {
    return {
      ref: node.key,
      role: node.role,
      platformRole: `scripted:${node.role}`,
      name: node.name,
      ...(node.value === undefined ? {} : { value: node.value }),
      states: { enabled: true, focused: false, ...node.states },
      bounds: { x: 10, y: 10, width: 50, height: 20 },
      actions: node.actions ?? [],
      children: (node.children ?? []).map((child) => this.raw(child)),
    };
  }

  install(platform: FakePlatform): void {
    const alive = (): void => {
      if (!platform.running.has(FIXTURE_PID)) throw new ProcessExitedError(FIXTURE_PID);
    };
    platform.accessibility.getTree = () =>
      Promise.resolve()
        .then(alive)
        .then(() => this.raw());
    platform.accessibility.readSubtree = (ref) => {
      if (!platform.running.has(FIXTURE_PID)) return Promise.reject(new ProcessExitedError(FIXTURE_PID));
      const found = [...walk(this.raw())].find((node) => node.ref === ref);
      return found === undefined ? Promise.reject(new DeskpilotError('NODE_NOT_FOUND', 'gone')) : Promise.resolve(found);
    };
    platform.accessibility.press = (ref, node) => {
      if (node.actions.length === 0) return Promise.resolve(false);
      this.pressed.push(String(ref));
      try {
        this.onPress.get(String(ref))?.();
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve(true);
    };
    platform.accessibility.select = (ref) => {
      this.selected.push(String(ref));
      return Promise.resolve(true);
    };
  }
}

const button = (key: string, name: string, extra: Partial<Scripted> = {}): Scripted => ({ role: 'button', name, key, actions: ['press'], ...extra });

let platform: FakePlatform;
let clock: FakeClock;
let engine: ActionEngine;

beforeEach(() => {
  platform = new FakePlatform();
  clock = new FakeClock();
  engine = new ActionEngine({ platform, clock });
});

async function idOf(name: string, role?: Role): Promise<string> {
  const { root } = await engine.observe(FIXTURE_PID);
  const match = findNodes(root, { name, ...(role === undefined ? {} : { role }) })[0];
  if (match === undefined) throw new Error(`no node named ${name}`);
  return match.node.id;
}

describe('late effects (a GTK 4 button fires ~250 ms after the press)', () => {
  function calculator(): ScriptedApp {
    let display = '';
    let firesAt: number | undefined;
    const app = new ScriptedApp(() => {
      if (firesAt !== undefined && clock.now() >= firesAt) {
        display += '7';
        firesAt = undefined;
      }
      return {
        role: 'window',
        name: 'Calculator',
        key: 'w',
        children: [
          { role: 'textarea', name: '', key: 'display', value: display, states: { editable: true } },
          // Shown pressed (checked) while the click is pending: a sign it was received, not its effect.
          button('seven', '7', { states: { checked: firesAt !== undefined } }),
        ],
      };
    });
    app.onPress.set('seven', () => (firesAt = clock.now() + 250));
    return app;
  }

  it('waits past the first look and names the display change as the evidence', async () => {
    calculator().install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('7', 'button') });
    expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true, outcome: 'changed', via: 'action' });
    expect(result.changes[0]).toMatch(/textarea: value: "" → "7"/);
    expect(result.changes.join()).not.toMatch(/checked/);
    // 80, then 40, 60, 100: the effect shows at the fourth look, 280 ms after the press.
    expect(clock.sleeps).toEqual([80, 40, 60, 100]);
    expect(engine.looks).toBe(4);
  });

  it('a press that never shows an effect is reported unchanged after the bound, not sooner', async () => {
    const app = calculator();
    // Shown pressed for ever, and never firing: the pressed look is no evidence.
    app.onPress.set('seven', () => undefined);
    app.install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('7', 'button') });
    expect(result).toMatchObject({ success: true, changed: false, outcome: 'unchanged', changes: [] });
    expect(clock.time).toBe(SETTLE_BOUND_MS);
  });

  it('an action that shows at once costs one look, as a fixed settle did', async () => {
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Enable feature') });
    expect(result).toMatchObject({ changed: true, outcome: 'changed' });
    expect(clock.sleeps).toEqual([80]);
  });
});

describe('closing a window is a success', () => {
  function dialogApp(onOk: (close: () => void) => void): ScriptedApp {
    let open = true;
    const app = new ScriptedApp(() => ({
      role: 'application',
      name: 'yad',
      key: 'app',
      children: open ? [{ role: 'dialog', name: 'Question', key: 'dialog', children: [button('ok', 'OK'), button('cancel', 'Cancel')] }] : [],
    }));
    app.onPress.set('ok', () => onOk(() => (open = false)));
    return app;
  }

  it('reports outcome closed when the dialog is gone at the first look', async () => {
    dialogApp((close) => close()).install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('OK', 'button') });
    expect(result).toMatchObject({ success: true, changed: true, outcome: 'closed', changes: ['the dialog closed'], nodeAfter: null });
    expect(result.nodeBefore?.name).toBe('OK');
  });

  it('reports outcome closed when the press call fails because the window went with it', async () => {
    dialogApp((close) => {
      close();
      throw new DeskpilotError('ACTION_FAILED', 'org.freedesktop.DBus.Error.NoReply');
    }).install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('OK', 'button') });
    expect(result).toMatchObject({ success: true, outcome: 'closed' });
    expect(result.error).toBeUndefined();
  });

  it('reports outcome closed when the app ends with its dialog, whatever the timing', async () => {
    dialogApp(() => platform.kill(FIXTURE_PID)).install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('OK', 'button') });
    expect(result).toMatchObject({ success: true, outcome: 'closed', changes: ['the process exited'] });
  });

  it('an app that left the accessibility bus after the click (process still winding down) closed its window', async () => {
    const app = dialogApp(() => undefined);
    app.install(platform);
    app.onPress.set('ok', () => {
      const gone = (): Promise<never> => Promise.reject(new UnsupportedOperationError('pid 4242 is running but has no accessibility tree'));
      platform.accessibility.getTree = gone;
      platform.accessibility.readSubtree = gone;
    });
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('OK', 'button') });
    expect(result).toMatchObject({ success: true, outcome: 'closed' });
  });

  it('a bus that answers with errors half-way through going away is looked at again, not reported', async () => {
    const app = dialogApp(() => undefined);
    app.install(platform);
    app.onPress.set('ok', () => {
      let looks = 0;
      const flaky = (): Promise<never> => {
        looks += 1;
        if (looks > 2) platform.kill(FIXTURE_PID);
        return Promise.reject(
          looks > 2 ? new ProcessExitedError(FIXTURE_PID) : new DeskpilotError('ACTION_FAILED', 'org.freedesktop.DBus.Error.ServiceUnknown'),
        );
      };
      platform.accessibility.getTree = flaky;
      platform.accessibility.readSubtree = flaky;
    });
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('OK', 'button') });
    expect(result).toMatchObject({ success: true, outcome: 'closed' });
  });

  it('a failed press whose window is still there stays a failure', async () => {
    dialogApp(() => {
      throw new DeskpilotError('ACTION_FAILED', 'refused');
    }).install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('OK', 'button') });
    expect(result).toMatchObject({ success: false, error: { code: 'ACTION_FAILED' } });
  });
});

describe('the node reported is the one acted on', () => {
  it('closing the second of two tabs does not report the first tab\'s "Close tab" button', async () => {
    let tabs = ['One', 'Two'];
    const app = new ScriptedApp(() => ({
      role: 'window',
      name: 'Browser',
      key: 'w',
      children: [
        {
          role: 'tablist',
          name: '',
          key: 'tabs',
          children: tabs.map((name) => ({ role: 'tab', name, key: `tab-${name}`, children: [button(`close-${name}`, 'Close tab')] })),
        },
      ],
    }));
    app.onPress.set('close-Two', () => (tabs = ['One']));
    app.install(platform);
    const { root } = await engine.observe(FIXTURE_PID);
    const second = findNodes(root, { name: 'Close tab', role: 'button' })[1]?.node.id as string;
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: second });
    expect(app.pressed).toEqual(['close-Two']);
    expect(result).toMatchObject({ success: true, changed: true, nodeAfter: null, changes: ['the node is gone from the tree'] });
    expect(result.nodeBefore?.id).toBe(second);
  });
});

describe('accessibility before synthetic input', () => {
  it('types by inserting text where the element takes it: no keys, no focus change, no window raised', async () => {
    platform.frontmostPid = 0;
    platform.accessibility.insertText = (ref, _node, text) => {
      const widget = platform.app(FIXTURE_PID).get(String(ref).split('/')[1] as string);
      widget.value = `${String(widget.value ?? '')}${text}`;
      return Promise.resolve(true);
    };
    const result = await engine.run(FIXTURE_PID, { action: 'type', id: await idOf('Name', 'textfield'), text: 'Ada' });
    expect(result).toMatchObject({ success: true, method: 'accessibility', via: 'insert-text', changed: true, nodeAfter: { value: 'Ada' } });
    expect(result.interrupted).toBeUndefined();
    expect(platform.inputLog).toEqual([]);
    expect(platform.activations).toEqual([]);
  });

  it('selects a list item through its container when the item has no action', async () => {
    const app = new ScriptedApp(() => ({
      role: 'window',
      name: 'Files',
      key: 'w',
      children: [{ role: 'list', name: 'Files', key: 'list', children: [{ role: 'listitem', name: 'a.txt', key: 'a' }] }],
    }));
    app.install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('a.txt', 'listitem') });
    expect(result).toMatchObject({ method: 'accessibility', via: 'selection' });
    expect(app.selected).toEqual(['a']);
    expect(platform.inputLog).toEqual([]);
  });

  it('an arrow key in a list selects the next item through Selection, and stops at the end', async () => {
    const app = new ScriptedApp(() => ({
      role: 'window',
      name: 'Files',
      key: 'w',
      children: [
        {
          role: 'list',
          name: 'Files',
          key: 'list',
          children: [
            { role: 'listitem', name: 'a.txt', key: 'a', states: { selected: true } },
            { role: 'listitem', name: 'b.txt', key: 'b' },
          ],
        },
      ],
    }));
    app.install(platform);
    const down = await engine.run(FIXTURE_PID, { action: 'key', key: 'down', id: await idOf('a.txt', 'listitem') });
    expect(down).toMatchObject({ method: 'accessibility', via: 'selection' });
    expect(app.selected).toEqual(['b']);
    // Past the last item there is nothing to select: no selection is made, the key is left to the keyboard.
    const past = await engine.run(FIXTURE_PID, { action: 'key', key: 'down', id: await idOf('b.txt', 'listitem') });
    expect(past.via).not.toBe('selection');
    expect(app.selected).toEqual(['b']);
  });

  it("Escape in a main window never presses its title bar's Close button", async () => {
    const app = new ScriptedApp(() => ({
      role: 'window',
      name: 'Calculator',
      key: 'w',
      children: [button('close', 'Close'), button('seven', '7', { states: { focused: true } })],
    }));
    app.install(platform);
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'escape' });
    expect(result.via).not.toBe('dialog-cancel');
    expect(app.pressed).toEqual([]);
  });

  it('Return on a focused button presses it, Escape in a dialog presses Cancel, a menu shortcut runs its item', async () => {
    const app = new ScriptedApp(() => ({
      role: 'application',
      name: 'Editor',
      key: 'app',
      children: [
        {
          role: 'window',
          name: 'Editor',
          key: 'w',
          children: [{ role: 'menubar', name: '', key: 'bar', children: [{ role: 'menuitem', name: 'Save', key: 'save', actions: ['click'] }] }],
        },
        { role: 'dialog', name: 'Replace?', key: 'd', children: [button('replace', 'Replace', { states: { focused: true } }), button('cancel', '_Cancel')] },
      ],
    }));
    app.install(platform);
    platform.accessibility.shortcuts = () => Promise.resolve([{ name: 'Save', shortcut: 'ctrl+s', path: ['File'], enabled: true }]);
    const enter = await engine.run(FIXTURE_PID, { action: 'key', key: 'return' });
    const escape = await engine.run(FIXTURE_PID, { action: 'key', key: 'escape' });
    const save = await engine.run(FIXTURE_PID, { action: 'key', key: 'ctrl+s' });
    expect([enter, escape, save].map((result) => [result.method, result.via])).toEqual([
      ['accessibility', 'action'],
      ['accessibility', 'dialog-cancel'],
      ['accessibility', 'menu-item'],
    ]);
    expect(app.pressed).toEqual(['replace', 'cancel', 'save']);
    expect(platform.inputLog).toEqual([]);
  });
});

describe('synthetic input gives the user their devices back', () => {
  it('puts the previously active window back after keys, and says the step interrupted', async () => {
    platform.frontmostPid = 4243;
    const result = await engine.run(FIXTURE_PID, { action: 'key', key: 'backspace', id: await idOf('Name', 'textfield') });
    expect(result).toMatchObject({ success: true, method: 'input', via: 'keys', interrupted: true });
    expect(platform.activations).toEqual([FIXTURE_PID]);
    expect(platform.restores).toEqual([4243]);
    expect(platform.frontmostPid).toBe(4243);
  });

  it('leaves the pointer alone when the user moved it meanwhile', async () => {
    platform.pointer = { x: 5, y: 5 };
    const click = platform.input.click.bind(platform.input);
    platform.input.click = async (point) => {
      await click(point);
      platform.pointer = { x: 700, y: 500 };
    };
    await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Name', 'textfield') });
    expect(platform.inputLog.filter((entry) => entry.startsWith('move'))).toEqual([]);
  });

  it('asks first when the user said never to take the pointer or keyboard, and a refusal sends nothing', async () => {
    const asked: string[] = [];
    engine = new ActionEngine({
      platform,
      clock,
      askBeforeInput: (request) => {
        asked.push(request.via);
        return Promise.reject(new DeskpilotError('PERMISSION_DENIED', 'the user keeps the pointer'));
      },
    });
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Name', 'textfield') });
    expect(result).toMatchObject({ success: false, error: { code: 'PERMISSION_DENIED' } });
    expect(asked).toEqual(['click']);
    expect(platform.inputLog).toEqual([]);
    // An accessible path needs no asking.
    expect(await engine.run(FIXTURE_PID, { action: 'click', id: await idOf('Enable feature') })).toMatchObject({ success: true, method: 'accessibility' });
    expect(asked).toEqual(['click']);
  });
});

import { describe, expect, it } from 'vitest';
import type { UiNode } from '../../shared/ui-node';
import type { AccessibilityBackend, AppListing, InputBackend, Platform, ScreenCapture } from '../platform/types';
import { withCapabilities } from './platform';

const NODE: UiNode = { id: 'n1', role: 'button', platformRole: 'push button', name: 'OK', states: { enabled: true, focused: false }, actions: ['press'] };
const IMAGE = { x: 0, y: 0, width: 1, height: 1, data: Buffer.alloc(4) };
const RUNNING = { name: 'Inner', executable: '/usr/bin/inner' };
const NAMED = { name: 'Inner', desktopId: 'inner.desktop' };
const PARTS = [{ ids: ['display' as const], deadlineMs: 1, run: () => Promise.resolve([]) }];

/**
 * Every member of AccessibilityBackend, optional ones included, each saying it was reached. The
 * type is Required<…>, so the compiler keeps this list complete: a method added to the interface
 * fails to compile here until it is listed, and then the test below proves it gets through.
 */
function fullBackend(calls: string[]): Required<AccessibilityBackend> {
  const reached =
    <T>(name: string, value: T) =>
    (): Promise<T> => {
      calls.push(name);
      return Promise.resolve(value);
    };
  return {
    // An app with no windows: screen text has nothing to read (and loads no OCR) but still asks the backend.
    getTree: reached('getTree', { role: 'application', name: 'App', states: {}, actions: [], ref: 'root' } as never),
    // A count read live, through the composition as a getter: a copied number would stop counting.
    get actCalls(): number {
      calls.push('actCalls');
      return 7;
    },
    press: reached('press', true),
    setValue: reached('setValue', undefined),
    focus: reached('focus', true),
    focusInBackground: reached('focusInBackground', 'caret-placed' as const),
    insertText: reached('insertText', true),
    keyAction: reached('keyAction', true),
    select: reached('select', true),
    isDefault: reached('isDefault', true),
    nextEvent: reached('nextEvent', undefined),
    readSubtree: reached('readSubtree', { role: 'button', name: 'OK', states: {}, actions: [], ref: 'r' } as never),
    findNodes: reached('findNodes', []),
    readText: reached('readText', 'text'),
    bounds: reached('bounds', { x: 1, y: 2, width: 3, height: 4 }),
    shortcuts: reached('shortcuts', []),
    readChildren: reached('readChildren', []),
    focusPath: reached('focusPath', [0]),
  };
}

/** Every member of Platform, optional ones included; Required<…> keeps the list complete, as above. */
function fullPlatform(calls: string[]): Required<Platform> {
  const apps: AppListing = { list: () => Promise.resolve([]), frontmost: () => Promise.resolve(undefined), isAlive: () => Promise.resolve(true) };
  const input = {} as InputBackend;
  const screen: ScreenCapture = { captureWindow: () => Promise.resolve(IMAGE) };
  return {
    name: 'fake',
    primaryModifier: 'meta',
    appIdentity: () => RUNNING,
    namedIdentity: () => NAMED,
    diagnose: () => PARTS,
    appDataDir: () => '/inner/data',
    apps,
    accessibility: fullBackend(calls),
    input,
    screen,
    vision: { capture: () => Promise.resolve(IMAGE), read: () => Promise.resolve({ image: IMAGE, lines: [] }) },
    discovered: [{ name: 'DISPLAY', value: ':9', how: 'test' }],
    userInput: { listen: () => Promise.resolve({ close: () => undefined }) },
    close: () => {
      calls.push('close');
      return Promise.resolve();
    },
  };
}

describe('the capabilities the runtime composes over a backend', () => {
  it('pass on every Platform member they do not replace: values as they are, methods answering as the backend', () => {
    const inner = fullPlatform([]);
    const composed = withCapabilities(inner, {});
    // Screen text replaces these three; every other member must be the backend's own.
    const replaced = new Set(['accessibility', 'vision', 'close']);
    const members = Object.keys(inner) as (keyof Platform)[];
    expect(members.length).toBeGreaterThan(replaced.size);
    for (const key of members) {
      if (replaced.has(key)) expect(composed[key], key).toBeDefined();
      else if (typeof inner[key] !== 'function') expect(composed[key], key).toBe(inner[key]);
      else
        expect((composed[key] as (argument: unknown) => unknown)({ name: 'Inner', pid: 1 }), key).toBe(
          (inner[key] as (argument: unknown) => unknown)({ name: 'Inner', pid: 1 }),
        );
    }
    expect(composed.vision).not.toBe(inner.vision);
  });

  it('reach the backend through every AccessibilityBackend method, optional ones included', async () => {
    const calls: string[] = [];
    const composed = withCapabilities(fullPlatform(calls), {});
    const backend = composed.accessibility as Required<AccessibilityBackend>;
    const signal = new AbortController().signal;
    const invoke: { [K in keyof AccessibilityBackend]-?: () => Promise<unknown> } = {
      getTree: () => backend.getTree(1),
      actCalls: () => Promise.resolve(backend.actCalls),
      press: () => backend.press('r', NODE),
      setValue: () => backend.setValue('r', NODE, 'x'),
      focus: () => backend.focus('r', NODE),
      focusInBackground: () => backend.focusInBackground('r', NODE),
      insertText: () => backend.insertText('r', NODE, 'x'),
      keyAction: () => backend.keyAction(1, 'return', [], 'r', NODE),
      select: () => backend.select('r', NODE, 'c'),
      isDefault: () => backend.isDefault('r', NODE),
      nextEvent: () => backend.nextEvent(1, signal),
      readSubtree: () => backend.readSubtree('r', NODE, 10),
      findNodes: () => backend.findNodes(1, { limit: 1 }),
      readText: () => backend.readText('r', NODE, 10),
      bounds: () => backend.bounds('r', NODE),
      shortcuts: () => backend.shortcuts(1),
      readChildren: () => backend.readChildren(1, [{ ref: undefined, from: 0, count: 1 }]),
      focusPath: () => backend.focusPath(1),
    };
    const methods = Object.keys(fullBackend([]));
    for (const method of methods) await invoke[method as keyof AccessibilityBackend]();
    expect(calls).toEqual(methods);
  });

  it('close the backend when the composed platform closes', async () => {
    const calls: string[] = [];
    await withCapabilities(fullPlatform(calls), {}).close();
    expect(calls).toEqual(['close']);
  });
});

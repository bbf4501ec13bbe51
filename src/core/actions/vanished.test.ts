import { beforeEach, describe, expect, it } from 'vitest';
import { ObjectGoneError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../platform/fake/fake-platform';
import type { AccessibilityBackend } from '../platform/types';
import type { RawNode } from '../ui/ids';
import { findNodes } from '../ui/query';
import { ActionEngine, type InputRequest } from './engine';

/**
 * The fake app as LibreOffice's sheet or a Qt view behaves: each read hands out objects of the
 * current generation, and `dropAfterNextRead` makes the app drop them all just after the next
 * read (the engine's own), so the object the engine resolved is gone when it acts. A call on a
 * dropped object fails with ObjectGoneError, as AT-SPI's UnknownObject does. Every call on an
 * element is counted (actCalls) and logged, so the tests count reads and tries.
 */
class RemakingApp {
  generation = 0;
  actCalls = 0;
  dropAfterNextRead = false;
  /** Called between the read after which objects were dropped and the next read: the app changing meanwhile. */
  beforeReread: (() => void) | undefined;
  readonly log: string[] = [];

  constructor(private readonly platform: FakePlatform) {
    const backend = platform.accessibility;
    const inner = { ...backend };
    Object.defineProperty(backend, 'actCalls', { get: () => this.actCalls, configurable: true });
    backend.getTree = async (pid, options) => {
      if (this.generation > 0 && this.beforeReread !== undefined) {
        this.beforeReread();
        this.beforeReread = undefined;
      }
      this.log.push('read');
      const tree = this.stamp(await inner.getTree(pid, options));
      if (this.dropAfterNextRead) {
        this.dropAfterNextRead = false;
        this.generation += 1;
      }
      return tree;
    };
    // The engine's settle step re-reads a node alone by its ref: the app's answer carries the current generation.
    delete (backend as Partial<AccessibilityBackend>).readSubtree;
    backend.press = (ref, node) => this.call('press', ref, (live) => inner.press(live, node));
    backend.focus = (ref, node) => this.call('focus', ref, (live) => inner.focus(live, node));
    backend.setValue = (ref, node, value) => this.call('setValue', ref, (live) => inner.setValue(live, node, value));
  }

  /** One call on an element: counted before it is sent, and refused when its object was dropped. */
  async call<T>(name: string, ref: unknown, work: (live: unknown) => Promise<T>): Promise<T> {
    this.actCalls += 1;
    const [live, generation] = String(ref).split('@');
    if (Number(generation) !== this.generation) {
      this.log.push(`${name}:gone`);
      throw new ObjectGoneError();
    }
    this.log.push(name);
    return work(live);
  }

  private stamp(raw: RawNode): RawNode {
    return {
      ...raw,
      ref: `${String(raw.ref)}@${this.generation}`,
      ...(raw.children === undefined ? {} : { children: raw.children.map((child) => this.stamp(child)) }),
    };
  }

  get app(): ReturnType<FakePlatform['app']> {
    return this.platform.app(FIXTURE_PID);
  }
}

let platform: FakePlatform;
let app: RemakingApp;
let engine: ActionEngine;
let asked: InputRequest[];

beforeEach(() => {
  platform = new FakePlatform();
  app = new RemakingApp(platform);
  asked = [];
  engine = new ActionEngine({
    platform,
    clock: new FakeClock(),
    askBeforeInput: (request) => {
      asked.push(request);
      return Promise.resolve();
    },
  });
});

async function nodeNamed(name: string, role?: string): Promise<UiNode> {
  const { root } = await engine.observe(FIXTURE_PID);
  const match = findNodes(root, { name, ...(role === undefined ? {} : { role }) })[0];
  if (match === undefined) throw new Error(`no node named ${name}`);
  app.log.length = 0;
  return match.node;
}

/** The log up to and including the first call that went through, after the reads and failed tries before it. */
function upToFirstAct(log: readonly string[]): string[] {
  const at = log.findIndex((entry) => entry !== 'read' && !entry.endsWith(':gone'));
  return log.slice(0, at + 1);
}

describe('an element whose object vanished before anything reached the app', () => {
  it('is read again once and acted on once, at its new object: a click lands once', async () => {
    const { id } = await nodeNamed('Clicked 0 times');
    app.dropAfterNextRead = true;
    const result = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ success: true, method: 'accessibility', changed: true });
    // The resolve read, the try that met a dropped object, one fresh read, one press that went through.
    expect(upToFirstAct(app.log)).toEqual(['read', 'press:gone', 'read', 'press']);
    expect(app.log.filter((entry) => entry.startsWith('press'))).toEqual(['press:gone', 'press']);
    expect(app.app.clicks).toBe(1);
    expect(result.nodeAfter?.name).toBe('Clicked 1 time');
    expect(engine.retriedVanished).toBe(1);
  });

  it('sets a value once on the new object', async () => {
    const { id } = await nodeNamed('Volume');
    app.dropAfterNextRead = true;
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 75 });
    expect(result).toMatchObject({ success: true, changed: true });
    expect(app.log.filter((entry) => entry.startsWith('setValue'))).toEqual(['setValue:gone', 'setValue']);
    expect(app.app.get('slider').value).toBe(75);
  });

  it('is tried at most once more: an object gone again stays NODE_NOT_FOUND and says so', async () => {
    const { id } = await nodeNamed('Clicked 0 times');
    app.dropAfterNextRead = true;
    app.beforeReread = () => (app.dropAfterNextRead = true);
    const result = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND', data: { reason: 'object-gone' } } });
    expect(app.log.filter((entry) => entry.startsWith('press'))).toEqual(['press:gone', 'press:gone']);
    expect(app.app.clicks).toBe(0);
  });

  it('is never tried again after a call that may have had an effect: the value call sent, then the object gone', async () => {
    const { id } = await nodeNamed('Volume');
    const backend = platform.accessibility;
    const setValue = backend.setValue.bind(backend);
    // A backend that sends a call, then meets the object gone on its second: the first may have done something.
    backend.setValue = async (ref, node, value) => {
      await setValue(ref, node, value);
      app.generation += 1;
      return app.call('setValue-confirm', ref, () => Promise.resolve());
    };
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 75 });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    // One read to resolve, no second: nothing was tried again.
    expect(upToFirstAct(app.log)).toEqual(['read', 'setValue']);
    expect(app.log.filter((entry) => entry !== 'read')).toEqual(['setValue', 'setValue-confirm:gone']);
    expect(engine.retriedVanished).toBe(0);
    expect(app.app.get('slider').value).toBe(75);
  });

  it('is never tried again after a window was raised for keys, though the focus call that failed was the first on an element', async () => {
    const { id } = await nodeNamed('Name', 'textfield');
    platform.frontmostPid = NOTES_PID;
    app.dropAfterNextRead = true;
    const result = await engine.run(FIXTURE_PID, { action: 'key', id, key: 'a' });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect(platform.activations).toEqual([FIXTURE_PID]);
    expect(app.log.filter((entry) => entry !== 'read')).toEqual(['focus:gone']);
    expect(platform.inputLog.filter((entry) => entry.startsWith('key'))).toEqual([]);
  });

  it('asks the user once: the second try sends exactly the input approved for the same element', async () => {
    const { id } = await nodeNamed('Name', 'textfield');
    app.dropAfterNextRead = true;
    const result = await engine.run(FIXTURE_PID, { action: 'key', id, key: 'a' });
    expect(result.error).toBeUndefined();
    expect(app.log.filter((entry) => entry.startsWith('focus'))).toEqual(['focus:gone', 'focus']);
    expect(asked).toEqual([{ pid: FIXTURE_PID, via: 'keys', action: 'key', target: { id, role: 'textfield', name: 'Name', secret: false }, value: 'a' }]);
    expect(platform.inputLog.filter((entry) => entry.startsWith('key'))).toEqual(['key a']);
  });

  it('refuses an id that a fresh read gives to another role (a hash collision), and does nothing', async () => {
    const { id } = await nodeNamed('Volume');
    app.dropAfterNextRead = true;
    // Found by brute force (engine.test.ts): in the form, this button name hashes to Volume's id, and the button comes first.
    app.beforeReread = () => (app.app.get('button').name = 'Save 1528800');
    const result = await engine.run(FIXTURE_PID, { action: 'set_value', id, value: 10 });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND', data: { reason: 'object-gone' } } });
    expect(result.error?.message).toContain(`names button "Save 1528800"`);
    expect(result.error?.message).toContain('nothing was done');
    expect(app.log.filter((entry) => entry !== 'read')).toEqual(['setValue:gone']);
    expect(app.app.get('slider').value).toBe(50);
    expect(app.app.clicks).toBe(0);
  });

  it('says why when a fresh read no longer has the id, and offers the closest elements', async () => {
    const { id } = await nodeNamed('Clicked 0 times');
    app.dropAfterNextRead = true;
    app.beforeReread = () => (app.app.get('button').name = 'Renamed');
    const result = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect(result.error?.message).toContain('a fresh read no longer has it');
    expect(app.log.filter((entry) => entry !== 'read')).toEqual(['press:gone']);
    expect(app.app.clicks).toBe(0);
  });

  it('is not tried again by a backend that does not count its calls', async () => {
    const { id } = await nodeNamed('Clicked 0 times');
    Object.defineProperty(platform.accessibility, 'actCalls', { get: () => undefined });
    app.dropAfterNextRead = true;
    const result = await engine.run(FIXTURE_PID, { action: 'click', id });
    expect(result).toMatchObject({ success: false, error: { code: 'NODE_NOT_FOUND' } });
    expect(app.log.filter((entry) => entry !== 'read')).toEqual(['press:gone']);
  });
});

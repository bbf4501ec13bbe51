import { describe, expect, it } from 'vitest';
import { IFACE } from '../../../../native/linux/atspi';
import { DbusCallError } from '../../../../native/linux/dbus';
import { isObjectGone } from '../../../shared/errors';
import type { UiNode } from '../../../shared/ui-node';
import { AtspiAccessibility } from './accessibility';
import type { AppDirectory } from './apps';
import { bridgeOf } from './bridges';
import type { AtspiClient, AtspiRef } from './client';
import { actError, countingClient } from './gone-object';
import type { AppMirror } from './mirror';
import { fixture, loaded, names } from './testing/mirror-app';

const TARGET: AtspiRef = { pid: process.pid, bus: ':1.7', path: '/cell/d2', interfaces: [IFACE.accessible, IFACE.component], role: 0, gtk4: false };

function failure(errorName: string, member = 'GrabFocus'): DbusCallError {
  return new DbusCallError(errorName, 'no such thing', { destination: TARGET.bus, path: TARGET.path, interface: IFACE.component, member });
}

/** A client whose GetRole answers as `look` says, recording each call. */
function client(look: 'answers' | DbusCallError, calls: string[] = []): AtspiClient {
  const call = (target: [string, string], iface: string, member: string): Promise<unknown[]> => {
    calls.push(`${target[1]} ${iface.split('.').at(-1) ?? ''}.${member}`);
    return look === 'answers' ? Promise.resolve([42]) : Promise.reject(look);
  };
  return { call, property: () => Promise.resolve(1), setProperty: () => Promise.resolve(), other: () => 'other' } as unknown as AtspiClient;
}

describe('the act path on an object that is gone', () => {
  it('takes UnknownObject as gone, without asking anything more', async () => {
    const calls: string[] = [];
    const error = await actError(client('answers', calls), TARGET, failure('org.freedesktop.DBus.Error.UnknownObject'));
    expect(isObjectGone(error)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('takes UnknownMethod as gone only when GetRole on the path fails the same way', async () => {
    const calls: string[] = [];
    const gone = await actError(
      client(failure('org.freedesktop.DBus.Error.UnknownMethod', 'GetRole'), calls),
      TARGET,
      failure('org.freedesktop.DBus.Error.UnknownMethod'),
    );
    expect(isObjectGone(gone)).toBe(true);
    expect(calls).toEqual(['/cell/d2 Accessible.GetRole']);
  });

  it('says a live object lacks the method (ACTION_FAILED), which no new read would change', async () => {
    const error = await actError(client('answers'), TARGET, failure('org.freedesktop.DBus.Error.UnknownMethod'));
    expect(isObjectGone(error)).toBe(false);
    expect(error).toMatchObject({ code: 'ACTION_FAILED', message: expect.stringContaining('Component.GrabFocus') as unknown });
  });

  it('passes other failures on as before', async () => {
    expect(await actError(client('answers'), TARGET, failure('org.freedesktop.DBus.Error.Failed'))).toMatchObject({ code: 'ACTION_FAILED' });
    const unrelated = new Error('not D-Bus');
    expect(await actError(client('answers'), TARGET, unrelated)).toBe(unrelated);
  });

  it('counts calls, property reads and property writes, and nothing else', async () => {
    let count = 0;
    const counted = countingClient(client('answers'), () => (count += 1));
    await counted.call([TARGET.bus, TARGET.path], IFACE.component, 'GrabFocus');
    await counted.property([TARGET.bus, TARGET.path], IFACE.text, 'CharacterCount');
    await counted.setProperty([TARGET.bus, TARGET.path], IFACE.value, 'CurrentValue', 'd', 1);
    expect((counted as unknown as { other(): string }).other()).toBe('other');
    expect(count).toBe(3);
  });

  it('makes the mirror read the gone object’s parent again, which drops it', async () => {
    const app = fixture();
    const mirror: AppMirror = await loaded(app);
    // The app dropped /b without an event; a call on it failed as gone.
    app.nodes.set('/w', { name: 'Window', role: 'window', kids: ['/a'] });
    mirror.objectGone('/b');
    expect(mirror.clean).toBe(false);
    await mirror.flush(app);
    expect(names(mirror.snapshot())).toEqual(['app', 'Window', 'A']);
    expect(app.calls).toContain('children /w');
  });

  it('falls back to a full read when the parent still lists the object said to be gone', async () => {
    const app = fixture();
    const mirror = await loaded(app);
    mirror.objectGone('/b');
    await expect(mirror.flush(app)).rejects.toMatchObject({ reason: 'failed-call' });
  });
});

describe("AtspiAccessibility's act methods", () => {
  /** A node of each toolkit that answers every call: each call, property read and write recorded. */
  function backend(toolkit: 'GTK' | 'Chromium') {
    const sent: string[] = [];
    const answers: Record<string, unknown[]> = {
      GetActions: [[['click', '', '']]],
      DoAction: [true],
      GetIndexInParent: [2],
      SelectChild: [true],
      GetState: [[1 << 12, 0]],
      GrabFocus: [true],
      GetNSelections: [1],
      GetSelection: [1, 3],
      DeleteText: [true],
      InsertText: [true],
      SetTextContents: [true],
      GetText: ['text'],
      GetExtents: [[10, 20, 30, 40]],
    };
    let characters = 4;
    const client = {
      onTreeEvent: () => () => undefined,
      onClose: () => undefined,
      call: (_target: [string, string], _iface: string, member: string) => {
        sent.push(member);
        if (member === 'InsertText') characters += 1;
        return Promise.resolve(answers[member] ?? [0]);
      },
      property: (_target: [string, string], _iface: string, name: string) => {
        sent.push(`Get ${name}`);
        return Promise.resolve(name === 'CharacterCount' ? characters : 1);
      },
      setProperty: (_target: [string, string], _iface: string, name: string) => {
        sent.push(`Set ${name}`);
        return Promise.resolve();
      },
    } as unknown as AtspiClient;
    const apps = { get: () => Promise.resolve({ bus: ':1.7', bridge: bridgeOf(toolkit, '1.0') }) } as unknown as AppDirectory;
    const accessibility = new AtspiAccessibility(client, apps, { pause: () => Promise.resolve() });
    const interfaces = [IFACE.accessible, IFACE.action, IFACE.component, IFACE.text, IFACE.editableText, IFACE.value, IFACE.selection];
    const ref: AtspiRef = { ...TARGET, interfaces };
    return { accessibility, ref, sent };
  }

  it('send every call on an element through the count: actCalls moves by exactly the calls the app got', async () => {
    const node: UiNode = { id: 'x', role: 'textfield', name: 'Field', states: { enabled: true, focused: true } } as UiNode;
    const acts: [string, 'GTK' | 'Chromium', (accessibility: AtspiAccessibility, ref: AtspiRef) => Promise<unknown>][] = [
      ['press', 'GTK', (a, ref) => a.press(ref)],
      ['select', 'GTK', (a, ref) => a.select(ref, node, ref)],
      ['isDefault', 'GTK', (a, ref) => a.isDefault(ref)],
      ['setValue number', 'GTK', (a, ref) => a.setValue(ref, node, 5)],
      ['setValue text', 'GTK', (a, ref) => a.setValue(ref, node, 'five')],
      ['focus', 'GTK', (a, ref) => a.focus(ref, { ...node, states: { enabled: true, focused: false } })],
      ['focus focused', 'GTK', (a, ref) => a.focus(ref, node)],
      ['focusInBackground', 'Chromium', (a, ref) => a.focusInBackground(ref, node)],
      ['insertText', 'GTK', (a, ref) => a.insertText(ref, node, 'ab')],
      ['readText', 'GTK', (a, ref) => a.readText(ref, node, 100)],
      ['bounds', 'GTK', (a, ref) => a.bounds(ref)],
    ];
    for (const [name, toolkit, act] of acts) {
      const { accessibility, ref, sent } = backend(toolkit);
      await act(accessibility, ref);
      expect(sent.length, `${name} sent something`).toBeGreaterThan(0);
      expect(accessibility.actCalls, `${name}: ${sent.join(', ')}`).toBe(sent.length);
    }
  });
});

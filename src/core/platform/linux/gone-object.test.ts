import { describe, expect, it } from 'vitest';
import { IFACE } from '../../../../native/linux/atspi';
import { DbusCallError } from '../../../../native/linux/dbus';
import { isObjectGone } from '../../../shared/errors';
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

import type { Nullable, Pointer } from '../../../../../native/macos';
import type { FakeWorld } from './fake-world';

type ObjcObject =
  { kind: 'class'; name: string } | { kind: 'workspace' } | { kind: 'apps' } | { kind: 'app'; pid: number } | { kind: 'nsstring'; text: string };

/** NSWorkspace and NSRunningApplication as far as the objc_msgSend shapes reach. */
export class FakeObjc {
  private readonly objects = new Map<bigint, ObjcObject>();
  private readonly selectors = new Map<bigint, string>();
  private next = 0x900000n;
  pools = 0;

  constructor(
    private readonly world: FakeWorld,
    private readonly record: (name: string, args: unknown[]) => void,
  ) {}

  getClass(name: string): Nullable {
    this.record('objc_getClass', [name]);
    return name === 'NSWorkspace' ? this.add({ kind: 'class', name }) : null;
  }

  selector(name: string): Pointer {
    this.record('sel_registerName', [name]);
    const handle = this.next++;
    this.selectors.set(handle, name);
    return handle;
  }

  push(): Pointer {
    this.pools += 1;
    return 0x7001n;
  }

  pop(pool: Pointer): void {
    if (pool !== 0x7001n) throw new Error('popped an unknown pool');
    this.pools -= 1;
  }

  send(self: Pointer, op: Pointer, shape: 'id' | 'long' | 'int32' | 'cstring', index?: number): unknown {
    const selector = this.selectors.get(op);
    const object = this.objects.get(self);
    this.record('objc_msgSend', [shape, selector, ...(index === undefined ? [] : [index])]);
    if (this.pools <= 0) throw new Error('an autoreleased result outside a pool');
    const key = `${object?.kind}:${selector}:${shape}`;
    switch (key) {
      case 'class:sharedWorkspace:id':
        return this.add({ kind: 'workspace' });
      case 'workspace:runningApplications:id':
        return this.add({ kind: 'apps' });
      case 'apps:count:long':
        return this.world.apps.length;
      case 'apps:objectAtIndex::id':
        return this.add({ kind: 'app', pid: (this.world.apps[index ?? -1] as { pid: number }).pid });
    }
    const app = object?.kind === 'app' ? this.world.apps.find((entry) => entry.pid === object.pid) : undefined;
    if (app !== undefined && key === `app:activationPolicy:long`) return app.policy ?? 0;
    if (app !== undefined && key === `app:processIdentifier:int32`) return app.pid;
    if (app !== undefined && key === `app:localizedName:id`) return this.add({ kind: 'nsstring', text: app.name });
    if (app !== undefined && key === `app:bundleIdentifier:id`) return app.bundleId === undefined ? null : this.add({ kind: 'nsstring', text: app.bundleId });
    if (object?.kind === 'nsstring' && key === 'nsstring:UTF8String:cstring') return object.text;
    throw new Error(`unexpected message ${key}`);
  }

  private add(object: ObjcObject): Pointer {
    const handle = this.next++;
    this.objects.set(handle, object);
    return handle;
  }
}

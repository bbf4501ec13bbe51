import type { Nullable, Pointer } from '../../../../../native/macos';
import type { FakeApp, FakeWorld } from './fake-world';

/** What an NSRunningApplication knows about its app; it stays readable after the app quit. */
type AppInfo = Pick<FakeApp, 'pid' | 'name' | 'bundleId' | 'policy'>;

type ObjcObject =
  { kind: 'class'; name: string } | { kind: 'workspace' } | { kind: 'apps' } | { kind: 'app'; info: AppInfo } | { kind: 'nsstring'; text: string };

const CLASSES = new Set(['NSWorkspace', 'NSRunningApplication']);

/**
 * NSWorkspace and NSRunningApplication as far as the objc_msgSend shapes reach. The workspace's
 * list is frozen at its first read, as it is in a process whose main run loop never turns
 * (Apple's NSRunningApplication documentation; y3owk1n/mimi#69): apps launched later are missing
 * and quit apps stay in it. +runningApplicationWithProcessIdentifier: answers from the live world.
 */
export class FakeObjc {
  private readonly objects = new Map<bigint, ObjcObject>();
  private readonly selectors = new Map<bigint, string>();
  private next = 0x900000n;
  private frozen: AppInfo[] | undefined;
  pools = 0;

  constructor(
    private readonly world: FakeWorld,
    private readonly record: (name: string, args: unknown[]) => void,
  ) {}

  getClass(name: string): Nullable {
    this.record('objc_getClass', [name]);
    return CLASSES.has(name) ? this.add({ kind: 'class', name }) : null;
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

  send(self: Pointer, op: Pointer, shape: 'id' | 'long' | 'int32' | 'cstring', argument?: number): unknown {
    const selector = this.selectors.get(op);
    const object = this.objects.get(self);
    this.record('objc_msgSend', [shape, selector, ...(argument === undefined ? [] : [argument])]);
    if (this.pools <= 0) throw new Error('an autoreleased result outside a pool');
    const receiver = object?.kind === 'class' ? `class(${object.name})` : object?.kind;
    const key = `${receiver}:${selector}:${shape}`;
    switch (key) {
      case 'class(NSWorkspace):sharedWorkspace:id':
        return this.add({ kind: 'workspace' });
      case 'workspace:runningApplications:id':
        this.frozen ??= this.world.apps.filter((app) => app.dead !== true).map(info);
        return this.add({ kind: 'apps' });
      case 'apps:count:long':
        return this.frozen?.length ?? 0;
      case 'apps:objectAtIndex::id':
        return this.add({ kind: 'app', info: this.frozen?.[argument ?? -1] as AppInfo });
      case 'class(NSRunningApplication):runningApplicationWithProcessIdentifier::id': {
        if (typeof argument !== 'number' || !Number.isInteger(argument)) throw new Error('runningApplicationWithProcessIdentifier: without a pid_t');
        const app = this.world.apps.find((entry) => entry.pid === argument && entry.dead !== true);
        return app === undefined ? null : this.add({ kind: 'app', info: info(app) });
      }
    }
    const app = object?.kind === 'app' ? object.info : undefined;
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

function info(app: FakeApp): AppInfo {
  return {
    pid: app.pid,
    name: app.name,
    ...(app.bundleId === undefined ? {} : { bundleId: app.bundleId }),
    ...(app.policy === undefined ? {} : { policy: app.policy }),
  };
}

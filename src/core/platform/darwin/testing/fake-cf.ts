import type { CGPoint, CGSize } from '../../../../../native/macos';

/** Type ids the fake hands out; real ones are runtime values, which is why the code asks. */
export const TYPE = { string: 7, number: 22, boolean: 21, array: 19, dictionary: 18, null: 16, element: 100, axValue: 101, event: 200, other: 1 } as const;

export interface FakeEvent {
  kind: 'mouse' | 'keyboard' | 'scroll' | 'probe';
  type?: number;
  location?: CGPoint;
  button?: number;
  keyCode?: number;
  keyDown?: boolean;
  flags?: bigint;
  unicode?: string;
  wheels?: [number, number, number];
  units?: number;
  fields: Record<number, number>;
}

export type FakeObject =
  | { kind: 'string'; text: string }
  | { kind: 'number'; value: number; type: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'null' }
  | { kind: 'array'; items: bigint[] }
  | { kind: 'dictionary'; keys: bigint[]; values: bigint[] }
  | { kind: 'element'; pid: number; node: unknown; systemWide?: boolean }
  | { kind: 'axValue'; type: number; point?: CGPoint; size?: CGSize; error?: number; range?: { location: number; length: number } }
  | { kind: 'event'; event: FakeEvent }
  | { kind: 'machPort' }
  | { kind: 'runLoopSource'; port: bigint }
  | { kind: 'inputSource'; layoutData: bigint | null }
  | { kind: 'data'; keyboard: Record<number, [string, string]> };

interface Entry {
  object: FakeObject;
  count: number;
  immortal: boolean;
}

/**
 * A reference-counted object heap standing in for CoreFoundation. Objects a Create/Copy
 * returns start at +1; containers hold +1 on their items and drop it when freed; releasing
 * a freed object throws (an over-release would crash on a real Mac). `leaks()` lists what
 * is still alive, so every test can assert that each Create/Copy was released exactly once.
 */
export class FakeHeap {
  private readonly entries = new Map<bigint, Entry>();
  private next = 0x1000n;

  add(object: FakeObject, immortal = false): bigint {
    const handle = this.next;
    this.next += 0x10n;
    this.entries.set(handle, { object, count: 1, immortal });
    return handle;
  }

  get(handle: bigint | null): FakeObject {
    if (handle === null) throw new Error('NULL passed where a CF object is required');
    const entry = this.entries.get(handle);
    if (entry === undefined || entry.count <= 0) throw new Error(`use of freed or unknown CF object 0x${handle.toString(16)}`);
    return entry.object;
  }

  retain(handle: bigint): bigint {
    this.get(handle);
    (this.entries.get(handle) as Entry).count += 1;
    return handle;
  }

  release(handle: bigint): void {
    this.get(handle);
    const entry = this.entries.get(handle) as Entry;
    if (entry.immortal) return;
    entry.count -= 1;
    if (entry.count > 0) return;
    const { object } = entry;
    if (object.kind === 'array') for (const item of object.items) this.release(item);
    if (object.kind === 'dictionary') for (const item of [...object.keys, ...object.values]) this.release(item);
    if (object.kind === 'inputSource' && object.layoutData !== null) this.release(object.layoutData);
  }

  /** Live objects that are not constants, described for a readable failure. */
  leaks(): string[] {
    return [...this.entries.values()].filter((entry) => !entry.immortal && entry.count > 0).map((entry) => describe(entry.object));
  }
}

export function describe(object: FakeObject): string {
  switch (object.kind) {
    case 'string':
      return `CFString(${JSON.stringify(object.text)})`;
    case 'number':
      return `CFNumber(${object.value})`;
    case 'element':
      return `AXUIElement(pid ${object.pid})`;
    default:
      return object.kind;
  }
}

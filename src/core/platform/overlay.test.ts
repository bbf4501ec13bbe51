import { describe, expect, it } from 'vitest';
import { overlay } from './overlay';

interface Backend {
  read(): string;
  write?(text: string): string;
  readonly calls: number;
}

class Real implements Backend {
  #secret = 'inner';
  count = 0;
  read(): string {
    this.count += 1;
    return this.#secret;
  }
  write(text: string): string {
    return `${this.#secret}:${text}`;
  }
  get calls(): number {
    return this.count;
  }
}

describe('overlay', () => {
  it('puts the overrides in front and passes every other member on, bound to the inner object', () => {
    const real = new Real();
    const wrapped = overlay<Backend>(real, { read: () => 'outer' });
    expect(wrapped.read()).toBe('outer');
    // Not named in the overrides, and it uses a private field: it still works through the wrapper.
    expect(wrapped.write?.('x')).toBe('inner:x');
    expect('write' in wrapped).toBe(true);
  });

  it('passes on a method the wrapper never heard of, and reads getters live', () => {
    const real = new Real();
    const extended = Object.assign(real, { later: () => 'added later' });
    const wrapped = overlay<Backend & { later(): string }>(extended, {});
    expect(wrapped.later()).toBe('added later');
    expect(wrapped.calls).toBe(0);
    real.read();
    expect(wrapped.calls).toBe(1);
  });

  it('leaves an optional method absent when neither side has it', () => {
    const wrapped = overlay<Backend>({ read: () => 'r', calls: 0 }, {});
    expect(wrapped.write).toBeUndefined();
    expect('write' in wrapped).toBe(false);
  });
});

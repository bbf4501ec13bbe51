/**
 * `inner` with `overrides` in front of it. Every other member, whether the interface has it today
 * or gains it tomorrow, reads through to `inner`, so a wrapper that adds one capability (screen
 * text over an accessibility backend) cannot drop a method nobody remembered to pass on. Methods
 * are bound to `inner`: a backend is a class, whose methods need their own `this`. Getters are read
 * live, on each access.
 */
export function overlay<T extends object>(inner: T, overrides: Partial<T>): T {
  const own = (key: string | symbol): boolean => Object.hasOwn(overrides, key);
  return new Proxy(inner, {
    get(target, key) {
      if (own(key)) return Reflect.get(overrides, key);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has: (target, key) => own(key) || Reflect.has(target, key),
  });
}

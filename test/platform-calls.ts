/**
 * Counts every call into a platform's apps, accessibility and input backends: "refused before
 * any work" is then a count of zero, which a busy machine cannot make flaky the way a
 * time limit is.
 */
import type { Platform } from '../src/core/platform/types';

export interface CallCount {
  readonly total: number;
  readonly names: readonly string[];
}

export function countPlatformCalls(platform: Platform): CallCount {
  const names: string[] = [];
  for (const [part, backend] of [
    ['apps', platform.apps],
    ['accessibility', platform.accessibility],
    ['input', platform.input],
  ] as const) {
    const methods = backend as unknown as Record<string, unknown>;
    for (const [name, method] of Object.entries(methods)) {
      if (typeof method !== 'function') continue;
      methods[name] = (...args: unknown[]): unknown => {
        names.push(`${part}.${name}`);
        return (method as (...rest: unknown[]) => unknown).apply(backend, args);
      };
    }
  }
  return {
    get total() {
      return names.length;
    },
    names,
  };
}

import { describe, expect, it } from 'vitest';
import { RETRY_MS, decideAccess, type GateProbes } from './access-gate';

/** Pure: runs on every OS, so the gate the real-Mac suite stands on is itself tested here. */
function probes(reads: number[], overrides: Partial<GateProbes> = {}): GateProbes & { sleeps: number[]; readCount: () => number } {
  const sleeps: number[] = [];
  let count = 0;
  return {
    platform: 'darwin',
    required: true,
    trusted: () => Promise.resolve(true),
    read: () => Promise.resolve(reads[count++] ?? 0),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    executable: '/usr/local/bin/node',
    sleeps,
    readCount: () => count,
    ...overrides,
  };
}

describe('the real-Mac suite gate (issue 29, point 8)', () => {
  it('runs once a real AX read answers, not on AXIsProcessTrusted alone', async () => {
    const gate = probes([0]);
    expect(await decideAccess(gate)).toMatchObject({ run: true, required: true });
    expect(gate.readCount()).toBe(1);
  });

  it('trusted but every read failing with -25204 (raullenchai/Rapid-MLX#3153) is no access, after one retry', async () => {
    const gate = probes([-25204, -25204]);
    const access = await decideAccess(gate);
    expect(access).toMatchObject({ run: false, required: true });
    expect(access.why).toContain('-25204');
    expect(gate.sleeps).toEqual([RETRY_MS]);
    expect(gate.readCount()).toBe(2);
  });

  it('a read that fails once and then answers runs the suite', async () => {
    const gate = probes([-25211, 0]);
    expect(await decideAccess(gate)).toMatchObject({ run: true });
  });

  it('off macOS, untrusted, or without the libraries, it never reads', async () => {
    for (const overrides of [{ platform: 'linux' }, { trusted: () => Promise.resolve(false) }, { trusted: () => Promise.reject(new Error('dlopen')) }]) {
      const gate = probes([0], overrides);
      expect((await decideAccess(gate)).run).toBe(false);
      expect(gate.readCount()).toBe(0);
    }
  });
});

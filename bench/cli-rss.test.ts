import { describe, expect, it } from 'vitest';
import { peakRss } from './cli-rss';

const env = { PATH: process.env['PATH'] ?? '/usr/bin' };

describe('peakRss', () => {
  it("gives the child's own peak, its exit code and how much it wrote", async () => {
    // 96 MiB touched by the child alone: a peak below it would be some other process's figure.
    const script = "const b = Buffer.alloc(96 * 2 ** 20, 1); process.stdout.write('x'.repeat(1000 + (b[0] ?? 0) - 1))";
    const run = await peakRss([process.execPath, '-e', script], env, process.cwd());
    expect(run.exitCode).toBe(0);
    expect(run.stdoutBytes).toBe(1000);
    expect(run.peakMb).toBeGreaterThan(96);
  });

  it('says a failed run failed, with the peak it reached', async () => {
    const run = await peakRss([process.execPath, '-e', 'process.exit(3)'], env, process.cwd());
    expect(run.exitCode).toBe(3);
    expect(run.peakMb).toBeGreaterThan(0);
  });
});

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Nearest-rank quantile: p95 of 20 samples is the 19th. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

export const ms = (value: number): string => value.toFixed(1);

/**
 * Runs `work` over items with at most `limit` in flight. D-Bus calls pipeline on one
 * socket, so a bounded burst is much faster than one call at a time without flooding an app.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return results;
}

/**
 * Wraps tasks so that at most `limit` run at once; the rest wait their turn in order.
 * Plain promise chains, not an async wrapper: a tree read passes tens of thousands of tasks
 * through here, and each async frame kept alive while its task ran was most of its garbage.
 */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its slot straight to the next in line, so no newcomer slips in between.
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };
  const run = <T>(task: () => Promise<T>): Promise<T> => {
    let started: Promise<T>;
    try {
      started = task();
    } catch (error) {
      release();
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return started.then(
      (value) => {
        release();
        return value;
      },
      (error: unknown) => {
        release();
        throw error;
      },
    );
  };
  return <T>(task: () => Promise<T>): Promise<T> =>
    running < limit ? ((running += 1), run(task)) : new Promise<void>((resolve) => waiting.push(resolve)).then(() => run(task));
}

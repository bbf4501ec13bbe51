/** Polling with a clear message on timeout, for tests and the headless session. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const detail = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${detail}`, { cause: lastError });
    }
    // Short first polls keep startup latency low; the cap keeps long waits from spinning.
    await sleep(Math.min(5 * 1.5 ** attempt, 50, Math.max(1, deadline - Date.now())));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

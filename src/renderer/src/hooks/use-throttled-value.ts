import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * `value` while `active` is false; while it is true, the first value at once and then at most
 * one new value every `intervalMs`, with the latest one always delivered once `active` ends.
 * Streaming answers pass their text through this, so markdown renders at most ~20 times a
 * second however fast the chunks arrive.
 *
 * The interval counts from when a value was committed to the DOM, not from when it was asked
 * for: on a busy thread a render can land late, and counting from the request would let the
 * next one follow it within a few ms.
 */
export function useThrottledValue<T>(value: T, active: boolean, intervalMs: number): T {
  const throttling = active && intervalMs > 0;
  // An object, so asking to show the same value again still commits (and clears `pending`).
  const [shown, setShown] = useState({ value });
  const latest = useRef(value);
  const committed = useRef(value);
  const committedAt = useRef(Number.NEGATIVE_INFINITY);
  const pending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const settings = useRef({ throttling, intervalMs });
  latest.current = value;
  settings.current = { throttling, intervalMs };

  // Decides whether the latest value can be shown now, later (a timer), or is already on screen.
  const tick = useRef(() => {
    if (!settings.current.throttling || timer.current !== undefined || pending.current) return;
    if (Object.is(latest.current, committed.current)) return;
    const wait = committedAt.current + settings.current.intervalMs - performance.now();
    if (wait <= 0) {
      pending.current = true;
      setShown({ value: latest.current });
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      tick.current();
    }, wait);
  });

  useLayoutEffect(() => {
    committed.current = shown.value;
    committedAt.current = performance.now();
    pending.current = false;
    tick.current();
  }, [shown]);

  useEffect(() => {
    if (throttling) {
      tick.current();
      return;
    }
    clearTimeout(timer.current);
    timer.current = undefined;
    // Kept in step while not throttling, so the next stream starts from what is on screen.
    if (!Object.is(shown.value, value)) setShown({ value });
  }, [value, throttling, shown]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return throttling ? shown.value : value;
}

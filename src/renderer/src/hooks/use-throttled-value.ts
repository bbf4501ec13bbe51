import { useEffect, useRef, useState } from 'react';

/**
 * `value` while `active` is false; while it is true, the first value at once and then at most
 * one new value every `intervalMs`, with the latest one always delivered once `active` ends.
 * Streaming answers pass their text through this, so markdown renders at most ~20 times a
 * second however fast the chunks arrive.
 */
export function useThrottledValue<T>(value: T, active: boolean, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const latest = useRef(value);
  const lastShownAt = useRef(Number.NEGATIVE_INFINITY);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  latest.current = value;

  useEffect(() => {
    const show = (next: T): void => {
      lastShownAt.current = performance.now();
      setShown(() => next);
    };
    if (!active || intervalMs <= 0) {
      clearTimeout(timer.current);
      timer.current = undefined;
      show(value);
      return;
    }
    const wait = lastShownAt.current + intervalMs - performance.now();
    if (wait <= 0) {
      show(value);
    } else if (timer.current === undefined) {
      timer.current = setTimeout(() => {
        timer.current = undefined;
        show(latest.current);
      }, wait);
    }
  }, [value, active, intervalMs]);

  useEffect(() => () => clearTimeout(timer.current), []);

  // Outside streaming the value is shown as it is, without waiting for the effect.
  return active && intervalMs > 0 ? shown : value;
}

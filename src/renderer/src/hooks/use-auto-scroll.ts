import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** How close to the end still counts as "at the bottom", in px. */
const SLACK = 8;

/**
 * Keeps `scroller` at its end while its content grows, as long as the user is there. Scrolling
 * up (the position moving up, not the content growing) lets go; coming back down, or jump(),
 * takes hold again. `following` is false while let go, for the "Jump to latest" button.
 */
export function useAutoScroll(scroller: RefObject<HTMLElement | null>, content: RefObject<HTMLElement | null>) {
  const stick = useRef(true);
  const lastTop = useRef(0);
  const [following, setFollowing] = useState(true);

  const toEnd = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  }, [scroller]);

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (distance <= SLACK) stick.current = true;
    else if (element.scrollTop < lastTop.current) stick.current = false;
    lastTop.current = element.scrollTop;
    setFollowing(stick.current);
  }, [scroller]);

  useEffect(() => {
    const inner = content.current;
    const outer = scroller.current;
    if (inner === null || outer === null) return undefined;
    // Neither the content growing (chunks, an opened tool card) nor the scroller shrinking (the
    // input growing, the window resized) fires a scroll event, and both hide the newest lines:
    // follow either if holding on.
    const observer = new ResizeObserver(() => {
      if (stick.current) toEnd();
    });
    observer.observe(inner);
    observer.observe(outer);
    return () => observer.disconnect();
  }, [content, scroller, toEnd]);

  const jump = useCallback(() => {
    stick.current = true;
    setFollowing(true);
    toEnd();
  }, [toEnd]);

  return { following, onScroll, jump };
}

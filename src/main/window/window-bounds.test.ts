import { describe, expect, it } from 'vitest';
import { visibleBounds } from './window-bounds';

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const monitor = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('visibleBounds', () => {
  it('leaves the default placement alone when nothing was saved', () => {
    expect(visibleBounds(undefined, [laptop])).toBeUndefined();
  });

  it('keeps a window that is fully on a display where it was', () => {
    expect(visibleBounds({ x: 100, y: 100, width: 460, height: 640 }, [laptop, monitor])).toEqual({ x: 100, y: 100, width: 460, height: 640 });
    expect(visibleBounds({ x: 2000, y: 300, width: 460, height: 640 }, [laptop, monitor])).toEqual({ x: 2000, y: 300, width: 460, height: 640 });
  });

  it('pulls a window that hangs off an edge back onto the display it mostly covers', () => {
    expect(visibleBounds({ x: 1300, y: 700, width: 460, height: 640 }, [laptop])).toEqual({ x: 980, y: 260, width: 460, height: 640 });
  });

  it('centres a window from an unplugged monitor on the primary display', () => {
    expect(visibleBounds({ x: 2000, y: 300, width: 460, height: 640 }, [laptop])).toEqual({ x: 490, y: 143, width: 460, height: 640 });
  });

  it('shrinks a window larger than the display', () => {
    expect(visibleBounds({ x: 0, y: 25, width: 3000, height: 2000 }, [laptop])).toEqual(laptop);
  });
});

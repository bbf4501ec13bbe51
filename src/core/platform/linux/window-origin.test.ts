import { describe, expect, it } from 'vitest';
import { parseWindowList, parseWindowTree, popoverShift, type ScreenWindow } from './window-origin';

describe('parseWindowTree', () => {
  it('reads absolute origins by title, first match winning', () => {
    const text = [
      'xwininfo: Window id: 0x4c7 (the root window) (has no name)',
      '  Root window id: 0x4c7 (the root window) (has no name)',
      '     3 children:',
      '     0x400003 (has no name): ()  1x1+-1+-1  +-1+-1',
      '     0x200001 "Widget Factory": ("gtk4-widget-factory" "Gtk4-widget-factory")  1200x900+0+0  +4+22',
      '        0x200009 "Widget Factory": ()  10x10+0+0  +9+9',
      '     0x600007 "Say \\"hi\\"": ("zenity" "Zenity")  300x200+50+60  +50+60',
    ].join('\n');
    expect([...parseWindowTree(text)]).toEqual([
      ['Widget Factory', { x: 4, y: 22 }],
      ['Say \\"hi\\"', { x: 50, y: 60 }],
    ]);
    expect(parseWindowList(text)[0]).toEqual({ title: 'Widget Factory', x: 4, y: 22, width: 1200, height: 900 });
  });
});

// Measured with gtk4-demo --run=dropdown under openbox (GTK 4.8): the window's client area at
// (756, 450), the drop-down at (20, 51) in it, its popover reported at (20, 57) and 165x152, and
// the popup an X window of its own at (773, 533), 165x158 (6 px of arrow on top).
const windows: ScreenWindow[] = [
  { title: 'gtk4-demo', x: -100, y: -100, width: 1, height: 1 },
  { title: 'Selections', x: 756, y: 450, width: 408, height: 315 },
  { title: 'gtk4-demo', x: 773, y: 533, width: 165, height: 158 },
];
const origin = { x: 756, y: 450 };

describe('popoverShift', () => {
  it('places a popover below its widget through its popup window, arrow included', () => {
    const shift = popoverShift(windows, { x: 20, y: 57, width: 165, height: 152 }, origin);
    // The list's first row, reported at (32, 76), is at (785, 558) on screen: 32 px lower than the window origin put it.
    expect(shift).toEqual({ x: 753, y: 482 });
  });

  it('puts the arrow below a popover shown above its widget', () => {
    const above = windows.map((window) => (window.height === 158 ? { ...window, y: 300 } : window));
    expect(popoverShift(above, { x: 20, y: 57, width: 165, height: 152 }, origin)).toEqual({ x: 753, y: 243 });
  });

  it('finds no popup for a node no window fits, nor when two would', () => {
    expect(popoverShift(windows, { x: 20, y: 57, width: 157, height: 144 }, origin)).toBeUndefined();
    const twice = [...windows, { title: 'other', x: 10, y: 10, width: 165, height: 160 }];
    expect(popoverShift(twice, { x: 20, y: 57, width: 165, height: 152 }, origin)).toBeUndefined();
  });
});

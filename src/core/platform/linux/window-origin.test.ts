import { describe, expect, it } from 'vitest';
import { parseWindowTree } from './window-origin';

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
  });
});

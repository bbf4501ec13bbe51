import { describe, expect, it } from 'vitest';
import { acceleratorToShortcut, keyBindingToShortcut } from './keybinding';

describe('keyBindingToShortcut', () => {
  // Strings as mousepad's menu items return them over AT-SPI.
  it('keeps the accelerator of a GTK3 menu item', () => {
    expect(keyBindingToShortcut('o;<Alt>f:o;<Primary>o')).toBe('ctrl+o');
    expect(keyBindingToShortcut('a;<Alt>f:a;<Primary><Shift>s')).toBe('ctrl+shift+s');
    expect(keyBindingToShortcut('o;<Alt>e:r:o;<Primary><Alt>u')).toBe('ctrl+alt+u');
    expect(keyBindingToShortcut('p;<Alt>d:p;<Primary>Page_Up')).toBe('ctrl+pageup');
    expect(keyBindingToShortcut('u;<Alt>e:m:u;<Alt>Up')).toBe('alt+up');
    expect(keyBindingToShortcut('f;<Alt>v:f;F11')).toBe('f11');
    expect(keyBindingToShortcut('d;<Alt>e:d;Delete')).toBe('delete');
  });

  it('finds no shortcut where there is only a mnemonic or nothing', () => {
    expect(keyBindingToShortcut('l;<Alt>f:l;')).toBeUndefined();
    expect(keyBindingToShortcut('<Alt>f;<Alt>f;')).toBeUndefined();
    expect(keyBindingToShortcut('')).toBeUndefined();
    expect(keyBindingToShortcut('o')).toBeUndefined();
  });

  it('takes a lone accelerator from toolkits that send only that', () => {
    expect(keyBindingToShortcut('<Control>q')).toBe('ctrl+q');
    expect(keyBindingToShortcut('F1')).toBe('f1');
  });
});

describe('acceleratorToShortcut', () => {
  it('maps every GTK modifier name to ours', () => {
    expect(acceleratorToShortcut('<Control><Shift>z')).toBe('ctrl+shift+z');
    expect(acceleratorToShortcut('<Super>e')).toBe('meta+e');
    expect(acceleratorToShortcut('<Meta>e')).toBe('meta+e');
    expect(acceleratorToShortcut('<Mod1>x')).toBe('alt+x');
    expect(acceleratorToShortcut('<Primary>plus')).toBe('ctrl++');
    expect(acceleratorToShortcut('<Primary>S')).toBe('ctrl+s');
  });

  it('refuses what the key action cannot press', () => {
    expect(acceleratorToShortcut('<Hyper>a')).toBeUndefined();
    expect(acceleratorToShortcut('<Release>a')).toBeUndefined();
    expect(acceleratorToShortcut('<Primary>')).toBeUndefined();
    expect(acceleratorToShortcut('<Primary>XF86Save')).toBeUndefined();
  });
});

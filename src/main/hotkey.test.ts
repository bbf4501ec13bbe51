import { describe, expect, it, vi } from 'vitest';
import { Hotkey } from './hotkey';

describe('Hotkey', () => {
  it('registers, and unregisters the old accelerator before registering a new one', () => {
    const shortcuts = { register: vi.fn(() => true), unregister: vi.fn() };
    const onPress = vi.fn();
    const hotkey = new Hotkey(shortcuts, onPress);
    expect(hotkey.set('Alt+Space')).toEqual({ accelerator: 'Alt+Space', registered: true });
    expect(shortcuts.register).toHaveBeenCalledWith('Alt+Space', onPress);
    hotkey.set('Control+Shift+Space');
    expect(shortcuts.unregister).toHaveBeenCalledWith('Alt+Space');
    hotkey.dispose();
    expect(shortcuts.unregister).toHaveBeenLastCalledWith('Control+Shift+Space');
  });

  it('reports a taken accelerator and one Electron cannot parse, and never unregisters what it does not hold', () => {
    const shortcuts = {
      register: vi.fn((accelerator: string) => {
        if (accelerator === 'Hyper+') throw new Error('Invalid accelerator');
        return false;
      }),
      unregister: vi.fn(),
    };
    const hotkey = new Hotkey(shortcuts, () => undefined);
    expect(hotkey.set('Alt+Space')).toMatchObject({ registered: false, error: expect.stringMatching(/^Alt\+Space is already used by another app/) });
    expect(hotkey.set('Hyper+')).toMatchObject({ registered: false, error: expect.stringContaining('Invalid accelerator') });
    expect(shortcuts.unregister).not.toHaveBeenCalled();
  });
});

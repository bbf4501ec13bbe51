import { describe, expect, it, vi } from 'vitest';
import { Hotkey } from './hotkey';

describe('Hotkey', () => {
  it('registers a new accelerator before letting go of the old one', () => {
    const calls: string[] = [];
    const shortcuts = {
      register: vi.fn((accelerator: string) => (calls.push(`register ${accelerator}`), true)),
      unregister: vi.fn((accelerator: string) => void calls.push(`unregister ${accelerator}`)),
    };
    const onPress = vi.fn();
    const hotkey = new Hotkey(shortcuts, onPress);
    expect(hotkey.set('Alt+Space')).toEqual({ accelerator: 'Alt+Space', registered: true });
    expect(shortcuts.register).toHaveBeenCalledWith('Alt+Space', onPress);
    hotkey.change('Control+Shift+Space');
    expect(calls).toEqual(['register Alt+Space', 'register Control+Shift+Space', 'unregister Alt+Space']);
    hotkey.dispose();
    expect(shortcuts.unregister).toHaveBeenLastCalledWith('Control+Shift+Space');
  });

  it('keeps the working accelerator when the new one is taken or unparseable', () => {
    const shortcuts = {
      register: vi.fn((accelerator: string) => {
        if (accelerator === 'Hyper+') throw new Error('Invalid accelerator');
        return accelerator === 'Alt+Space';
      }),
      unregister: vi.fn(),
    };
    const hotkey = new Hotkey(shortcuts, () => undefined);
    hotkey.set('Alt+Space');
    expect(hotkey.change('Control+X')).toMatchObject({
      registered: false,
      error: expect.stringMatching(/^Control\+X is already used.*Alt\+Space stays the hotkey/),
    });
    expect(hotkey.change('Hyper+')).toMatchObject({ registered: false, error: expect.stringContaining('Invalid accelerator') });
    expect(hotkey.status).toEqual({ accelerator: 'Alt+Space', registered: true });
    expect(shortcuts.unregister).not.toHaveBeenCalled();
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

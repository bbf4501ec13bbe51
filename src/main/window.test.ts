import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ BrowserWindow: vi.fn(), shell: { openExternal: vi.fn() } }));

const { chatWindowOptions, isSafeExternalUrl } = await import('./window');

describe('chat window', () => {
  it('is sandboxed, isolated, without Node, hidden at start, floating and frameless', () => {
    const options = chatWindowOptions('/app/preload/index.cjs');
    expect(options.webPreferences).toEqual({
      preload: '/app/preload/index.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
    });
    expect(options).toMatchObject({ show: false, frame: false, alwaysOnTop: true });
  });

  it('lets only https links out', () => {
    expect(isSafeExternalUrl('https://example.org/docs')).toBe(true);
    expect(isSafeExternalUrl('http://example.org')).toBe(false);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { bridgeOf, describeBridge, UNKNOWN_BRIDGE } from './bridges';

describe('bridgeOf', () => {
  it('never sends Properties.GetAll to Qt (it kills Qt 5 and Qt 6 apps) nor to a toolkit it does not know', () => {
    expect(bridgeOf('Qt', '5.15.8')).toMatchObject({ kind: 'qt', getAll: false, cache: false, cacheItems: false, direct: false });
    expect(bridgeOf('Qt', '6.4.2').getAll).toBe(false);
    expect(bridgeOf('SomethingNew', '1.0')).toMatchObject({ kind: 'unknown', getAll: false, cache: false });
    expect(UNKNOWN_BRIDGE.getAll).toBe(false);
  });

  it('knows the toolkits it has measured by what their Application interface says', () => {
    expect(bridgeOf('GTK', '3.24.38').kind).toBe('gtk3');
    expect(bridgeOf('GTK', '4.8.3')).toMatchObject({ kind: 'gtk4', getAll: true, cache: true });
    expect(bridgeOf('gtk', '3.24.38', 'soffice')).toMatchObject({ kind: 'libreoffice', getAll: true });
    expect(bridgeOf('Gecko', '153.7.0')).toMatchObject({
      kind: 'gecko',
      getAll: true,
      cache: false,
      cacheItems: true,
      direct: true,
      order: true,
      lateFacts: true,
    });
    expect(bridgeOf('Chromium', '1.0')).toMatchObject({ kind: 'chromium', getAll: true, direct: true, lateFacts: false });
    expect(bridgeOf('GTK', '4.8.3').direct).toBe(false);
  });

  it('names the toolkit for errors', () => {
    expect(describeBridge(bridgeOf('Qt', '5.15.8'))).toBe('Qt 5.15.8');
    expect(describeBridge(UNKNOWN_BRIDGE)).toBe('an unknown toolkit');
  });
});

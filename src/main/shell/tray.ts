import { Menu, Tray, nativeImage } from 'electron';
import path from 'node:path';
import type { Translator } from '../../shared/i18n/i18n';

export interface TrayActions {
  show: () => void;
  settings: () => void;
  quit: () => void;
}

/**
 * The tray icon: the way back to Deskpilot when the hotkey is taken or forgotten. On macOS the
 * icon is a template image (black with alpha), which the menu bar tints for light and dark
 * mode; elsewhere it is the coloured one. `@2x` files next to each are picked up automatically.
 */
export function createTray(resourcesDir: string, actions: TrayActions, i18n: Translator, platform = process.platform): Tray {
  const file = platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  const image = nativeImage.createFromPath(path.join(resourcesDir, file));
  if (platform === 'darwin') image.setTemplateImage(true);
  const tray = new Tray(image);
  labelTray(tray, actions, i18n);
  // Linux trays mostly ignore clicks and open the menu; where a click arrives, it shows the window.
  tray.on('click', actions.show);
  return tray;
}

/** The tooltip and menu in the UI's language; called again when it changes. */
export function labelTray(tray: Tray, actions: TrayActions, { t }: Translator): void {
  tray.setToolTip(t('tray.tooltip'));
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: t('tray.show'), click: actions.show },
      { label: t('tray.settings'), click: actions.settings },
      { type: 'separator' },
      { label: t('tray.quit'), click: actions.quit },
    ]),
  );
}

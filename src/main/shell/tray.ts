import { Menu, Tray, nativeImage } from 'electron';
import path from 'node:path';

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
export function createTray(resourcesDir: string, actions: TrayActions, platform = process.platform): Tray {
  const file = platform === 'darwin' ? 'trayTemplate.png' : 'tray.png';
  const image = nativeImage.createFromPath(path.join(resourcesDir, file));
  if (platform === 'darwin') image.setTemplateImage(true);
  const tray = new Tray(image);
  tray.setToolTip('Deskpilot');
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show Deskpilot', click: actions.show },
      { label: 'Settings…', click: actions.settings },
      { type: 'separator' },
      { label: 'Quit Deskpilot', click: actions.quit },
    ]),
  );
  // Linux trays mostly ignore clicks and open the menu; where a click arrives, it shows the window.
  tray.on('click', actions.show);
  return tray;
}

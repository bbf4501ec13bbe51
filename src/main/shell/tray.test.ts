import { describe, expect, it, vi } from 'vitest';

const images: { path: string; template: boolean }[] = [];
const trays: { image: unknown; menu: { label?: string; type?: string; click?: () => void }[]; listeners: Map<string, () => void> }[] = [];

vi.mock('electron', () => ({
  nativeImage: {
    createFromPath: (path: string) => {
      const image = { path, template: false, setTemplateImage: (on: boolean) => (image.template = on) };
      images.push(image);
      return image;
    },
  },
  Menu: { buildFromTemplate: (template: unknown) => template },
  Tray: class {
    readonly record: (typeof trays)[number];
    constructor(image: unknown) {
      this.record = { image, menu: [], listeners: new Map() };
      trays.push(this.record);
    }
    setToolTip(): void {}
    setContextMenu(menu: (typeof trays)[number]['menu']): void {
      this.record.menu = menu;
    }
    on(event: string, listener: () => void): void {
      this.record.listeners.set(event, listener);
    }
  },
}));

const { createTray, labelTray } = await import('./tray');
const { createI18n } = await import('../../shared/i18n/i18n');
const EN = createI18n('en');

describe('tray', () => {
  it('offers Show, Settings and Quit', () => {
    const actions = { show: vi.fn(), settings: vi.fn(), quit: vi.fn() };
    createTray('/app/resources', actions, EN, 'linux');
    const menu = trays.at(-1)?.menu ?? [];
    expect(menu.map((item) => item.label ?? item.type)).toEqual(['Show Deskpilot', 'Settings…', 'separator', 'Quit Deskpilot']);
    menu[0]?.click?.();
    menu[1]?.click?.();
    menu[3]?.click?.();
    expect(actions.show).toHaveBeenCalledOnce();
    expect(actions.settings).toHaveBeenCalledOnce();
    expect(actions.quit).toHaveBeenCalledOnce();
    expect(images.at(-1)).toMatchObject({ path: '/app/resources/tray.png', template: false });
  });

  it('uses a template image on macOS', () => {
    createTray('/app/resources', { show: vi.fn(), settings: vi.fn(), quit: vi.fn() }, EN, 'darwin');
    expect(images.at(-1)).toMatchObject({ path: '/app/resources/trayTemplate.png', template: true });
  });

  it('relabels its menu in the new language', () => {
    const actions = { show: vi.fn(), settings: vi.fn(), quit: vi.fn() };
    const tray = createTray('/app/resources', actions, EN, 'linux');
    labelTray(tray, actions, createI18n('pt-BR'));
    const menu = trays.at(-1)?.menu ?? [];
    expect(menu.map((item) => item.label ?? item.type)).toEqual(['Mostrar o Deskpilot', 'Configurações…', 'separator', 'Sair do Deskpilot']);
    menu[0]?.click?.();
    expect(actions.show).toHaveBeenCalledOnce();
  });
});

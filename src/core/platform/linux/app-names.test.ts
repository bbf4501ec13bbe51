import { describe, expect, it } from 'vitest';
import { appNames, desktopIdFrom } from './app-names';
import { parseDesktopEntry, type DesktopEntry } from './desktop-entries';

function entry(id: string, lines: string[]): DesktopEntry {
  const parsed = parseDesktopEntry(['[Desktop Entry]', 'Type=Application', ...lines].join('\n'), id);
  if (parsed === undefined) throw new Error(`not an entry: ${id}`);
  return parsed;
}

const writer = entry('libreoffice-writer.desktop', ['Name=LibreOffice Writer', 'Exec=libreoffice --writer', 'StartupWMClass=libreoffice-writer']);
const calc = entry('libreoffice-calc.desktop', ['Name=LibreOffice Calc', 'Exec=libreoffice --calc', 'StartupWMClass=libreoffice-calc']);
const mousepad = entry('org.xfce.mousepad.desktop', ['Name=Mousepad', 'Exec=mousepad %F']);

describe('desktopIdFrom', () => {
  it('takes the one desktop file the windows name, before the ones that run the program', () => {
    expect(desktopIdFrom([writer], [writer, calc])).toBe('libreoffice-writer.desktop');
  });

  it('takes the one desktop file that runs the program when the windows name none', () => {
    expect(desktopIdFrom([], [mousepad])).toBe('org.xfce.mousepad.desktop');
    // The same file found twice is still one.
    expect(desktopIdFrom([mousepad], [mousepad])).toBe('org.xfce.mousepad.desktop');
  });

  it("takes the program's bare entry over its modes", () => {
    const settings = entry('org.xfce.mousepad-settings.desktop', ['Name=Mousepad Settings', 'Exec=mousepad --preferences']);
    expect(mousepad.bare).toBe(true);
    expect(settings.bare).toBeUndefined();
    expect(desktopIdFrom([], [settings, mousepad])).toBe('org.xfce.mousepad.desktop');
    expect(entry('x.desktop', ['Name=X', 'Exec=env A=1 "/opt/x y/x" %F %u']).bare).toBe(true);
    expect(entry('y.desktop', ['Name=Y', 'Exec=sh -c y']).bare).toBeUndefined();
  });

  it('records no guess: two files at the rung that finds any is no desktop id', () => {
    expect(desktopIdFrom([], [writer, calc])).toBeUndefined();
    expect(desktopIdFrom([writer, calc], [writer])).toBeUndefined();
    expect(desktopIdFrom([], [])).toBeUndefined();
  });
});

describe('appNames', () => {
  it("gives this process's program as its process name", () => {
    const names = appNames(process.pid, { XDG_DATA_HOME: '/nonexistent', XDG_DATA_DIRS: '/nonexistent', PATH: '' });
    expect(names?.processName).toBe(process.execPath.split('/').at(-1));
    expect(names?.desktopId).toBeUndefined();
  });

  it('gives nothing for a process that is not there', () => {
    expect(appNames(2 ** 30, {})).toBeUndefined();
  });
});

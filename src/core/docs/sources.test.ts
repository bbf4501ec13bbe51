import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appSources, helpNames, languages, macHelpBook } from './sources';

let root: string;
const touch = (file: string, text = 'x'): void => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
};

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'deskpilot-sources-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('documentation sources', () => {
  it("orders the user's languages, each with and without its region, then C", () => {
    expect(languages({ LANGUAGE: 'pt_BR:en', LANG: 'de_DE.UTF-8' })).toEqual(['pt_BR', 'pt', 'en', 'C']);
    expect(languages({ LANG: 'C.UTF-8' })).toEqual(['C']);
  });

  it('names an app by its binary, desktop id and name', () => {
    expect(helpNames({ name: 'Calculator', executable: '/usr/bin/gnome-calculator', desktopId: 'org.gnome.Calculator.desktop' })).toEqual([
      'gnome-calculator',
      'org.gnome.Calculator',
      'Calculator',
      'calculator',
    ]);
  });

  it("finds a Linux app's help in the user's language first, then C, and its man pages", () => {
    touch('help/C/gnome-calculator/index.page');
    touch('help/pt_BR/gnome-calculator/index.page');
    touch('help/C/gnome-calculator/figures/a.png');
    touch('man/man1/gnome-calculator.1.gz');
    touch('man/man1/other.1.gz');
    const roots = { help: [path.join(root, 'help')], man: [path.join(root, 'man')], applications: [] };
    const app = { name: 'Calculator', executable: '/usr/bin/gnome-calculator' };
    expect(appSources(app, { LANG: 'pt_BR.UTF-8' }, roots)).toEqual([
      { kind: 'app-help', key: 'app-help:gnome-calculator', files: [path.join(root, 'help/pt_BR/gnome-calculator/index.page')] },
      { kind: 'man', key: 'man:gnome-calculator', files: [path.join(root, 'man/man1/gnome-calculator.1.gz')] },
    ]);
    expect(appSources(app, { LANG: 'fr_FR.UTF-8' }, roots)[0]?.files).toEqual([path.join(root, 'help/C/gnome-calculator/index.page')]);
  });

  it("finds a macOS app's Help Book from its Info.plist, in the user's language", () => {
    const bundle = path.join(root, 'Notes.app');
    touch('Notes.app/Contents/Info.plist', '<plist><dict><key>CFBundleHelpBookFolder</key>\n<string>Notes.help</string></dict></plist>');
    touch('Notes.app/Contents/Resources/en.lproj/Notes.help/Contents/Resources/en.lproj/pages/start.html', '<h1>Start</h1>');
    touch('Notes.app/Contents/Resources/de.lproj/Notes.help/index.html', '<h1>Start</h1>');
    expect(macHelpBook(bundle, ['de_DE', 'de', 'C'])[0]?.files).toEqual([path.join(bundle, 'Contents/Resources/de.lproj/Notes.help/index.html')]);
    expect(macHelpBook(bundle, ['C'])[0]?.files).toEqual([
      path.join(bundle, 'Contents/Resources/en.lproj/Notes.help/Contents/Resources/en.lproj/pages/start.html'),
    ]);
    expect(appSources({ name: 'Notes', bundle }, { LANG: 'en_US.UTF-8' }, { help: [], man: [], applications: [] })[0]?.key).toBe('app-help:Notes.app');
  });
});

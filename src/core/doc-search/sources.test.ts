import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appSources, findBundle, folderSource, helpNames, languages, macHelpBook, whereLooked } from './sources';

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
      {
        kind: 'app-help',
        key: 'app-help:gnome-calculator',
        files: [path.join(root, 'help/pt_BR/gnome-calculator/index.page')],
        roots: [path.join(root, 'help/pt_BR/gnome-calculator')],
      },
      { kind: 'man', key: 'man:gnome-calculator', files: [path.join(root, 'man/man1/gnome-calculator.1.gz')], roots: [path.join(root, 'man')] },
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

  describe('reads only under its roots', () => {
    const roots = (): { help: string[]; man: string[]; applications: string[] } => ({
      help: [path.join(root, 'help')],
      man: [path.join(root, 'man')],
      applications: [path.join(root, 'Applications')],
    });

    it('drops app names that climb out of the help folders, however the app spells them', () => {
      touch('secret/passwords.md', '# hunter2');
      for (const name of ['../../secret', '..', '..\\..\\secret', 'a/../../secret', `${root}/secret`, '.']) expect(helpNames({ name }), name).toEqual([]);
      // The help folder is <root>/help/<lang>/<name>, so this would land on <root>/secret.
      touch('help/C/placeholder.page');
      expect(appSources({ name: '../../secret' }, { LANG: 'C' }, roots())).toEqual([]);
      expect(appSources({ name: 'x', executable: '/usr/bin/../../secret' }, { LANG: 'C' }, roots())).toEqual([]);
      expect(findBundle('../secret', roots().applications)).toBeUndefined();
    });

    it('refuses a help folder or man page that links out of its root', () => {
      touch('outside/notes.md', '# private');
      touch('outside/evil.1.gz', 'x');
      mkdirSync(path.join(root, 'help/C'), { recursive: true });
      mkdirSync(path.join(root, 'man/man1'), { recursive: true });
      symlinkSync(path.join(root, 'outside'), path.join(root, 'help/C/evil'));
      symlinkSync(path.join(root, 'outside/evil.1.gz'), path.join(root, 'man/man1/evil.1.gz'));
      expect(appSources({ name: 'evil' }, { LANG: 'C' }, roots())).toEqual([]);
      // A link that stays inside (man pages often link to one another) is kept.
      touch('man/man1/real.1.gz', 'x');
      symlinkSync(path.join(root, 'man/man1/real.1.gz'), path.join(root, 'man/man1/alias.1.gz'));
      expect(appSources({ name: 'alias' }, { LANG: 'C' }, roots())[0]?.files).toEqual([path.join(root, 'man/man1/alias.1.gz')]);
    });

    it('does not follow links inside a folder, and says when a folder had more files than it takes', () => {
      touch('notes/a.md');
      touch('notes/b.md');
      touch('notes/c.md');
      touch('outside/private.md');
      symlinkSync(path.join(root, 'outside/private.md'), path.join(root, 'notes/link.md'));
      symlinkSync(path.join(root, 'outside'), path.join(root, 'notes/linked-folder'));
      expect(folderSource(path.join(root, 'notes')).files.map((file) => path.basename(file))).toEqual(['a.md', 'b.md', 'c.md']);
      expect(folderSource(path.join(root, 'notes'))).not.toHaveProperty('cut');
      expect(folderSource(path.join(root, 'notes'), { limit: 2 })).toMatchObject({
        files: [path.join(root, 'notes/a.md'), path.join(root, 'notes/b.md')],
        cut: 2,
      });
    });

    it.skipIf(process.platform === 'darwin')('says where it looked for an app without help', () => {
      expect(whereLooked({ name: 'soffice' }, { LANG: 'pt_BR.UTF-8' }, { ...roots(), applications: [] })).toBe(
        `${path.join(root, 'help/{pt_BR,pt,C}/soffice')}, and man pages ${path.join(root, 'man/man*/soffice.*')}`,
      );
    });
  });
});

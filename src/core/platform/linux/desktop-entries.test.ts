import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { namesFrom } from './app-names';
import { applicationDirs, desktopEntries, entriesForProgram, entriesForWmClass, installedApp, parseDesktopEntry, readDesktopEntries } from './desktop-entries';

const root = mkdtempSync(path.join(tmpdir(), 'deskpilot-desktop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function entry(lines: string[]): string {
  return ['[Desktop Entry]', 'Type=Application', ...lines, '', '[Desktop Action new]', 'Name=New Window', 'Exec=other --new'].join('\n');
}

describe('desktop entries', () => {
  it('reads Name, StartupWMClass, GenericName, Keywords and the program of Exec, and nothing from the actions', () => {
    const parsed = parseDesktopEntry(
      entry([
        'Name=LibreOffice Writer',
        'Name[de]=LibreOffice Writer DE',
        'GenericName=Word Processor',
        'Keywords=Text;Letter;;',
        'Exec=env LANG=C "/opt/office/libre office" --writer %U',
        'StartupWMClass=libreoffice-writer',
      ]),
      'libreoffice-writer.desktop',
    );
    expect(parsed).toEqual({
      id: 'libreoffice-writer.desktop',
      names: ['LibreOffice Writer', 'libreoffice-writer'],
      kinds: ['Word Processor', 'Text', 'Letter'],
      wmClass: 'libreoffice-writer',
      program: '/opt/office/libre office',
    });
  });

  it('drops hidden and non-application entries, control characters and programs that only run others', () => {
    expect(parseDesktopEntry(entry(['Name=A', 'Hidden=true']), 'a.desktop')).toBeUndefined();
    expect(parseDesktopEntry('[Desktop Entry]\nType=Link\nName=A', 'a.desktop')).toBeUndefined();
    const hostile = parseDesktopEntry(entry([`Name=Evil\u001b[31m${'x'.repeat(1000)}`, 'Exec=sh -c "rm -rf ~"']), 'e.desktop');
    expect(hostile?.names[0]).toMatch(/^Evil \[31mx+$/);
    expect(hostile?.names[0]?.length).toBe(200);
    expect(hostile?.program).toBeUndefined();
  });

  it('honours XDG_DATA_HOME before XDG_DATA_DIRS, ignores relative folders, and lets the first id win', () => {
    expect(applicationDirs({ HOME: '/home/ada', XDG_DATA_DIRS: '/a:relative:/b' })).toEqual([
      '/home/ada/.local/share/applications',
      '/a/applications',
      '/b/applications',
    ]);
    const user = path.join(root, 'user/applications');
    const system = path.join(root, 'system/applications');
    mkdirSync(path.join(system, 'kde4'), { recursive: true });
    mkdirSync(user, { recursive: true });
    writeFileSync(path.join(user, 'editor.desktop'), entry(['Name=My Editor', 'Exec=editor']));
    writeFileSync(path.join(system, 'editor.desktop'), entry(['Name=System Editor', 'Exec=editor']));
    writeFileSync(path.join(system, 'kde4', 'viewer.desktop'), entry(['Name=Viewer', 'Exec=viewer']));
    writeFileSync(path.join(system, 'huge.desktop'), entry(['Name=Huge', `Comment=${'x'.repeat(70_000)}`]));
    const entries = readDesktopEntries([user, system]);
    expect(entries.map((each) => [each.id, each.names[0]])).toEqual([
      ['editor.desktop', 'My Editor'],
      ['kde4-viewer.desktop', 'Viewer'],
    ]);
  });

  it('reads the folders once per process', () => {
    const dir = path.join(root, 'once');
    mkdirSync(path.join(dir, 'applications'), { recursive: true });
    const env = { XDG_DATA_HOME: dir, XDG_DATA_DIRS: path.join(root, 'none') };
    writeFileSync(path.join(dir, 'applications', 'a.desktop'), entry(['Name=A', 'Exec=a']));
    expect(desktopEntries(env).map((each) => each.id)).toEqual(['a.desktop']);
    writeFileSync(path.join(dir, 'applications', 'b.desktop'), entry(['Name=B', 'Exec=b']));
    expect(desktopEntries(env).map((each) => each.id)).toEqual(['a.desktop']);
  });

  it('ties a process to the desktop files that run it, through $PATH, links and launcher suffixes', () => {
    const program = path.join(root, 'lib/office/program');
    const bin = path.join(root, 'bin');
    mkdirSync(program, { recursive: true });
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(program, 'soffice'), '#!/bin/sh\n');
    writeFileSync(path.join(program, 'soffice.bin'), '');
    symlinkSync(path.join(program, 'soffice'), path.join(bin, 'office-link'));
    const entries = [
      parseDesktopEntry(entry(['Name=Office Writer', 'Exec=office-link --writer %U', 'StartupWMClass=office-writer']), 'office-writer.desktop'),
      parseDesktopEntry(entry(['Name=Office Calc', 'Exec=office-link --calc']), 'office-calc.desktop'),
      parseDesktopEntry(entry(['Name=Mousepad', 'GenericName=Text Editor', 'Exec=mousepad %F']), 'mousepad.desktop'),
    ].filter((each) => each !== undefined);
    const matched = entriesForProgram(entries, path.join(program, 'soffice.bin'), { PATH: `relative:${bin}` });
    expect(matched.map((each) => each.id)).toEqual(['office-writer.desktop', 'office-calc.desktop']);
    expect(namesFrom(path.join(program, 'soffice.bin'), matched).aliases).toEqual(
      ['soffice.bin', 'office-writer', 'Office Writer', 'office-writer', 'office-calc', 'Office Calc'].filter(
        (name, index, all) => all.indexOf(name) === index,
      ),
    );
    expect(entriesForProgram(entries, '/usr/bin/mousepad', { PATH: '' }).map((each) => each.id)).toEqual(['mousepad.desktop']);
  });
});

describe('installedApp', () => {
  const entries = [
    parseDesktopEntry(entry(['Name=Text Editor', 'Exec=gnome-text-editor %U']), 'org.gnome.TextEditor.desktop'),
    parseDesktopEntry(entry(['Name=LibreOffice Writer', 'Exec=libreoffice --writer']), 'libreoffice-writer.desktop'),
    parseDesktopEntry(entry(['Name=LibreOffice Calc', 'Exec=libreoffice --calc']), 'libreoffice-calc.desktop'),
    parseDesktopEntry(entry(['Name=Notes', 'Exec=notes-a']), 'a.desktop'),
    parseDesktopEntry(entry(['Name=Notes', 'Exec=notes-b']), 'b.desktop'),
  ].filter((each) => each !== undefined);

  it('finds the program and desktop id a typed name means, and refuses a name two programs share', () => {
    expect(installedApp('text editor', entries)).toEqual({ program: 'gnome-text-editor', desktopId: 'org.gnome.TextEditor.desktop' });
    expect(installedApp('TextEditor', entries)?.program).toBe('gnome-text-editor');
    expect(installedApp('LibreOffice Writer', entries)).toEqual({ program: 'libreoffice', desktopId: 'libreoffice-writer.desktop' });
    // Five desktop files, one program: that is one app.
    expect(installedApp('libreoffice', entries)?.program).toBe('libreoffice');
    expect(installedApp('Notes', entries)).toBeUndefined();
    expect(installedApp('gimp', entries)).toBeUndefined();
  });
});

describe('entriesForWmClass', () => {
  it('ties windows to desktop files by StartupWMClass, else by desktop id, case aside', () => {
    const entries = [
      parseDesktopEntry(entry(['Name=LibreOffice Writer', 'Exec=libreoffice', 'StartupWMClass=libreoffice-writer']), 'libreoffice-writer.desktop'),
      parseDesktopEntry(entry(['Name=Tool', 'Exec=python3 /opt/tool.py']), 'org.example.Tool.desktop'),
      parseDesktopEntry(entry(['Name=Other', 'Exec=other']), 'other.desktop'),
    ].filter((each) => each !== undefined);
    expect(entriesForWmClass(entries, ['libreoffice-writer', 'LibreOffice 7.4']).map((each) => each.id)).toEqual(['libreoffice-writer.desktop']);
    // A Python app: its program says nothing (python3), its WM_CLASS names its desktop file.
    const tool = entriesForWmClass(entries, ['tool', 'org.example.tool']);
    expect(tool.map((each) => each.id)).toEqual(['org.example.Tool.desktop']);
    expect(namesFrom('/usr/bin/python3.11', tool, ['tool', 'org.example.tool']).aliases).toEqual([
      'python3.11',
      'tool',
      'org.example.tool',
      'org.example.Tool',
      'Tool',
    ]);
    expect(entriesForWmClass(entries, [])).toEqual([]);
  });
});

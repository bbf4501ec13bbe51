import { describe, expect, it } from 'vitest';
import type { AppInfo } from '../../shared/ui-node';
import type { Platform } from '../platform/types';
import { AmbiguousAppError } from '../tools/target';
import { isWorkflowApp, matchWorkflowApp, resolveWorkflowApp, sameProcessName, workflowApp } from './app-identity';
import { parseWorkflow } from './load';

const app = (pid: number, name: string, identity: Partial<AppInfo> = {}): AppInfo => ({ pid, name, windows: [], ...identity });

const editorA = app(10, 'Text Editor', { desktopId: 'org.gnome.TextEditor.desktop', processName: 'gnome-text-editor' });
const editorB = app(11, 'Text Editor', { desktopId: 'org.example.TextEditor.desktop', processName: 'example-editor' });

describe('recording the app', () => {
  it('keeps the name, desktop id, program and toolkit the platform listed', () => {
    expect(workflowApp(app(1, 'Mousepad', { desktopId: 'org.xfce.mousepad.desktop', processName: 'mousepad', toolkit: 'gtk 3.24.38' }))).toEqual({
      name: 'Mousepad',
      desktopId: 'org.xfce.mousepad.desktop',
      processName: 'mousepad',
      toolkit: 'gtk 3.24.38',
    });
    expect(workflowApp(app(1, 'calc'))).toEqual({ name: 'calc' });
    expect(workflowApp(undefined)).toEqual({});
  });

  it('drops control characters and bounds hostile identity strings, so what it writes loads again', () => {
    const recorded = workflowApp(app(1, 'x', { desktopId: `evil\u001b[2J${'a'.repeat(5000)}.desktop`, processName: '\u0000\u0007', toolkit: ' ' }));
    expect(recorded.desktopId?.length).toBe(255);
    expect(recorded.desktopId?.includes('\u001b')).toBe(false);
    expect(recorded).not.toHaveProperty('processName');
    expect(recorded).not.toHaveProperty('toolkit');
    const file = { format: 'deskpilot-workflow', version: 1, name: 't', app: recorded, steps: [{ action: 'key', key: 'ctrl+s' }] };
    expect(parseWorkflow(JSON.stringify(file), 't.json').app).toEqual(recorded);
  });

  it('refuses a file whose app identity carries control characters or is too long', () => {
    const file = (appPart: object): string =>
      JSON.stringify({ format: 'deskpilot-workflow', version: 1, name: 't', app: appPart, steps: [{ action: 'key', key: 'ctrl+s' }] });
    expect(parseWorkflow(file({ desktopId: 'a.desktop', processName: 'p'.repeat(255) }), 't.json').app.desktopId).toBe('a.desktop');
    expect(() => parseWorkflow(file({ desktopId: 'a\nb' }), 't.json')).toThrow(/desktopId/);
    expect(() => parseWorkflow(file({ processName: 'p'.repeat(256) }), 't.json')).toThrow(/processName/);
    expect(() => parseWorkflow(file({ toolkit: '' }), 't.json')).toThrow(/toolkit/);
  });
});

describe('finding the app again', () => {
  it('tells two apps of the same name apart by their desktop ids', () => {
    expect(matchWorkflowApp([editorA, editorB], { name: 'Text Editor', desktopId: 'org.example.TextEditor.desktop' })?.pid).toBe(11);
    expect(matchWorkflowApp([editorB, editorA], { name: 'Text Editor', desktopId: 'org.gnome.TextEditor.desktop' })?.pid).toBe(10);
  });

  it('refuses two apps of the same name when the workflow records nothing surer', () => {
    expect(() => matchWorkflowApp([editorA, editorB], { name: 'Text Editor' })).toThrow(AmbiguousAppError);
  });

  it('refuses two running instances of the recorded desktop id rather than picking one', () => {
    const second = { ...editorA, pid: 12 };
    expect(() => matchWorkflowApp([editorA, second], { desktopId: 'org.gnome.TextEditor.desktop' })).toThrow(AmbiguousAppError);
  });

  it('falls back to the program when no desktop id matches, then to the name', () => {
    const listedWithoutId = app(20, 'gnome-text-editor', { processName: 'gnome-text-editor' });
    expect(matchWorkflowApp([listedWithoutId], { name: 'Text Editor', desktopId: 'org.gnome.TextEditor.desktop', processName: 'gnome-text-editor' })?.pid).toBe(
      20,
    );
    expect(matchWorkflowApp([app(21, 'Galculator')], { name: 'galculator', processName: 'galculator' })?.pid).toBe(21);
  });

  it('never takes, by a looser rung, an app whose own desktop id says it is another app', () => {
    const wanted = { name: 'Text Editor', desktopId: 'org.gnome.TextEditor.desktop', processName: 'gnome-text-editor' };
    expect(matchWorkflowApp([editorB], wanted)).toBeUndefined();
  });

  it('matches a program name the kernel cut to 15 characters', () => {
    expect(sameProcessName('gnome-text-edit', 'gnome-text-editor')).toBe(true);
    expect(sameProcessName('gnome-text', 'gnome-text-editor')).toBe(false);
    expect(matchWorkflowApp([app(30, 'x', { processName: 'gnome-text-edit' })], { processName: 'gnome-text-editor' })?.pid).toBe(30);
  });

  it('refuses two programs of the same name', () => {
    expect(() => matchWorkflowApp([app(40, 'a', { processName: 'tool' }), app(41, 'b', { processName: 'tool' })], { processName: 'tool' })).toThrow(
      AmbiguousAppError,
    );
  });

  it('says whether the app the user is in is the one the workflow was made in, by the surest identity both know', () => {
    expect(isWorkflowApp(editorA, { name: 'Text Editor', desktopId: 'org.example.TextEditor.desktop' })).toBe(false);
    expect(isWorkflowApp(editorB, { name: 'Text Editor', desktopId: 'org.example.TextEditor.desktop' })).toBe(true);
    expect(isWorkflowApp(app(1, 'Mousepad'), { name: 'mousepad', desktopId: 'org.xfce.mousepad.desktop' })).toBe(true);
    expect(isWorkflowApp(app(1, 'Other'), {})).toBe(true);
  });

  it('resolves among the apps the platform lists, and names the running ones when the app is not there', async () => {
    // Only the listing is asked: a platform of nothing else shows that resolution acts on nothing.
    const platform = { apps: { list: () => Promise.resolve([editorA, editorB]) } } as unknown as Platform;
    const scope = { platform, targetPid: undefined };
    expect((await resolveWorkflowApp(scope, { name: 'Text Editor', desktopId: 'org.example.TextEditor.desktop' }))?.pid).toBe(11);
    expect(await resolveWorkflowApp(scope, {})).toBeUndefined();
    await expect(resolveWorkflowApp(scope, { name: 'Calculator', processName: 'galculator' })).rejects.toThrow(
      /not running; running: Text Editor, Text Editor/,
    );
  });
});

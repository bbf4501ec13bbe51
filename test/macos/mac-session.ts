/**
 * The real Mac the suite runs on: whether it may run, the apps it starts (TextEdit on a file of
 * its own, Calculator, osascript dialogs, an Electron window) and the answers it writes.
 * Every app started here is stopped by its pid, never by name.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Platform } from '../../src/core/platform/types';
import type { RawNode } from '../../src/core/ui/ids';
import { decideAccess } from './access-gate';
import { loadMacNative, RawAx } from './raw-ax';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const ARTIFACTS = path.join(ROOT, 'test/artifacts/macos');

/**
 * Runs on darwin once this process has the Accessibility grant and a real AX read of another
 * app answers (access-gate.ts; GitHub's macOS runners give the grant to the runner's processes).
 * The app read is the Dock, which always runs. DESKPILOT_MACOS_AX=required, set by the CI job,
 * turns no access into a failure instead of a skip.
 */
export async function macAccess(): Promise<{ run: boolean; required: boolean; why: string }> {
  return decideAccess({
    platform: process.platform,
    required: process.env['DESKPILOT_MACOS_AX'] === 'required',
    executable: process.execPath,
    trusted: async () => (await loadMacNative()).AXIsProcessTrusted(),
    read: async () => {
      const dock = pidsNamed('Dock')[0];
      if (dock === undefined) return -25200;
      const raw = new RawAx(await loadMacNative());
      try {
        return raw.copy(raw.app(dock), 'AXRole').code;
      } finally {
        raw.dispose();
      }
    },
    sleep: (ms) => sleep(ms),
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export function flatten(node: RawNode): RawNode[] {
  return [node, ...(node.children ?? []).flatMap(flatten)];
}

export function centre(node: RawNode): { x: number; y: number } {
  if (node.bounds === undefined) throw new Error(`${node.role} "${node.name}" has no bounds`);
  return { x: node.bounds.x + node.bounds.width / 2, y: node.bounds.y + node.bounds.height / 2 };
}

/** Pids of running processes with this exact name (pgrep -x), newest last. */
function pidsNamed(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** An app started with `open`, found by the pid that appeared; stop() ends that pid only. */
export interface StartedApp {
  pid: number;
  stop(): void;
}

export async function openApp(name: string, args: string[] = []): Promise<StartedApp> {
  const before = new Set(pidsNamed(name));
  // -n: a new instance, so the pid is ours even when the runner had the app open; -g would leave it in the background.
  execFileSync('open', ['-n', '-a', name, ...args]);
  const pid = await until(`${name} to start`, () => pidsNamed(name).find((candidate) => !before.has(candidate)));
  return { pid, stop: () => stopPid(pid) };
}

export function stopPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * TextEdit's corrections, off for this launch only (arguments are a defaults domain that lasts
 * as long as the process): typed text must come back exactly as typed, without a spelling
 * correction, a curly quote or a dash put in its place.
 */
const AS_TYPED = [
  ['CorrectSpellingAutomatically', 'NO'],
  ['CheckSpellingWhileTyping', 'NO'],
  ['SmartQuotes', 'NO'],
  ['SmartDashes', 'NO'],
  ['SmartLinks', 'NO'],
  ['TextReplacement', 'NO'],
  ['NSAutomaticSpellingCorrectionEnabled', 'NO'],
  ['NSAutomaticTextCompletionEnabled', 'NO'],
].flatMap(([key, value]) => [`-${key}`, value ?? '']);

/** A TextEdit document on a plain-text file of its own: no open panel, no iCloud prompt. */
export async function openTextEdit(text = ''): Promise<StartedApp & { file: string }> {
  const folder = mkdtempSync(path.join(tmpdir(), 'deskpilot-textedit-'));
  const file = path.join(folder, 'notes.txt');
  writeFileSync(file, text);
  const app = await openApp('TextEdit', [file, '--args', ...AS_TYPED]);
  return { ...app, file };
}

/** An osascript dialog; its pid is the app that shows it. */
export function osascriptDialog(script: string): StartedApp & { child: ChildProcess } {
  const child = spawn('osascript', ['-e', script], { stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('osascript did not start');
  return { pid, child, stop: () => stopPid(pid) };
}

/**
 * An Electron window with a textarea and a password field, from the project's own electron
 * package (its binary is fetched by `npx install-electron`, which the CI job runs first).
 */
export function openElectronFixture(): StartedApp {
  const electron = createRequire(import.meta.url)('electron') as unknown;
  if (typeof electron !== 'string') throw new Error('the electron package did not give a binary path: run `npx install-electron` first');
  const folder = mkdtempSync(path.join(tmpdir(), 'deskpilot-electron-fixture-'));
  const page =
    '<!doctype html><title>Deskpilot AX fixture</title><textarea aria-label="Notes" rows="8" cols="60"></textarea>' +
    '<input type="password" aria-label="Password" value="">';
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'deskpilot-ax-fixture', main: 'main.cjs' }));
  writeFileSync(
    path.join(folder, 'main.cjs'),
    [
      "const { app, BrowserWindow } = require('electron');",
      'app.whenReady().then(() => {',
      "  const window = new BrowserWindow({ width: 640, height: 420, title: 'Deskpilot AX fixture' });",
      `  void window.loadURL('data:text/html,' + encodeURIComponent(${JSON.stringify(page)}));`,
      '});',
    ].join('\n'),
  );
  const child = spawn(electron, [folder], { stdio: 'ignore' });
  const pid = child.pid;
  if (pid === undefined) throw new Error('Electron did not start');
  return { pid, stop: () => stopPid(pid) };
}

/** The app's tree once it has a window. */
export async function treeWithWindow(platform: Platform, pid: number): Promise<RawNode> {
  return until(`pid ${pid} to show a window`, async () => {
    const tree = await platform.accessibility.getTree(pid, { fresh: true, bounds: 'all' }).catch(() => undefined);
    return tree !== undefined && flatten(tree).some((node) => node.role === 'window' || node.role === 'dialog') ? tree : undefined;
  });
}

export interface Answer {
  question: number;
  asked: string;
  answer: string;
  evidence: Record<string, unknown>;
}

const answers: Answer[] = [];

/** Keeps an answer to one of the backend's open questions; written out by writeAnswers(). */
export function answer(entry: Answer): void {
  answers.push(entry);
  process.stdout.write(`Q${entry.question}: ${entry.answer} ${JSON.stringify(entry.evidence)}\n`);
}

const measurements: Record<string, unknown> = {};

export function measure(name: string, value: unknown): void {
  measurements[name] = value;
}

/** answers.json and answers.md (the table for the backend's README) under test/artifacts/macos/. */
export function writeAnswers(): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  const macos = execFileSync('sw_vers', ['-productVersion'], { encoding: 'utf8' }).trim();
  const sorted = [...answers].sort((a, b) => a.question - b.question);
  writeFileSync(path.join(ARTIFACTS, 'answers.json'), `${JSON.stringify({ macos, arch: process.arch, answers: sorted, measurements }, null, 2)}\n`);
  const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const rows = sorted.map((entry) => `| ${entry.question} | ${cell(entry.asked)} | ${cell(entry.answer)} | \`${cell(JSON.stringify(entry.evidence))}\` |`);
  writeFileSync(
    path.join(ARTIFACTS, 'answers.md'),
    [`Answers from a real Mac (macOS ${macos}, ${process.arch}):`, '', '| # | Question | Answer | Evidence |', '| - | - | - | - |', ...rows, ''].join('\n'),
  );
}

/**
 * Screen text on a real app with no tree where it matters: the canvas fixture paints its
 * buttons and text on a drawing area. OCR finds the painted "Submit", a click lands on it,
 * and the verify sees the repaint; the password entry beside the canvas is black in every capture.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionEngine } from '../../src/core/actions/engine';
import type { Platform } from '../../src/core/platform/types';
import { walk } from '../../src/core/ui/tree-index';
import { decodePng, withVision } from '../../src/core/screen-text';
import { screenshotTool } from '../../src/core/tools/screenshot';
import { hasHeadlessTools } from './session';
import { startDesktop, type Desktop, type LaunchedApp } from './desktop';
import { waitFor } from './wait-for';

const CANVAS_APP = fileURLToPath(new URL('../../resources/canvas-fixture/deskpilot-canvas.py', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = hasHeadlessTools() || process.env['CI'] !== undefined;

describe.skipIf(!run)('screen text on the canvas fixture', () => {
  let desktop: Desktop;
  let app: LaunchedApp;
  let platform: Platform;
  let engine: ActionEngine;

  beforeAll(async () => {
    desktop = await startDesktop();
    app = await desktop.launch('/usr/bin/python3', [CANVAS_APP]);
    platform = withVision(desktop.platform);
    engine = new ActionEngine({ platform });
  }, 60_000);

  afterAll(async () => {
    // Closes the OCR workers, then the platform under them.
    await platform?.close().catch(() => undefined);
    await desktop?.stop();
  });

  const output = (): string => readFileSync(desktop.session.logPath(app.child) as string, 'utf8');

  it('blacks out the password field, and no OCR line carries its text', async () => {
    const { root } = await engine.observe(app.pid, { bounds: 'all', fresh: true });
    const secret = [...walk(root)].find((node) => node.states.secret === true);
    expect(secret?.bounds).toBeDefined();
    const { image, lines } = await (platform.vision as NonNullable<Platform['vision']>).read(app.pid);
    const box = secret?.bounds as NonNullable<typeof secret>['bounds'] & object;
    let lit = 0;
    for (let y = box.y; y < box.y + box.height; y += 1) {
      for (let x = box.x; x < box.x + box.width; x += 1) {
        const at = ((y - image.y) * image.width + (x - image.x)) * 4;
        if (image.data[at] !== 0 || image.data[at + 1] !== 0 || image.data[at + 2] !== 0) lit += 1;
      }
    }
    expect(lit).toBe(0);
    expect(lines.map((line) => line.text).join('\n')).not.toMatch(/hunter2/);
  }, 60_000);

  it('finds the painted Submit by OCR, clicks it, and the verify sees the repaint', async () => {
    const context = { platform, engine, targetPid: app.pid, signal: new AbortController().signal, log: () => undefined };
    const shot = await screenshotTool.handler({ ocr: true }, context);
    expect(shot.images?.[0]?.mimeType).toBe('image/png');
    const submit = (shot.data as { ocr: { id: string; text: string }[] }).ocr.find((line) => line.text === 'Submit');
    expect(submit, shot.message).toBeDefined();
    const result = await engine.run(app.pid, { action: 'click', id: submit?.id });
    expect(result).toMatchObject({ success: true, method: 'input', changed: true });
    await waitFor(() => (output().includes('clicked: Submit') ? true : undefined), 5000, 'the click on stdout');
    const after = (await engine.observe(app.pid)).root;
    expect([...walk(after)].some((node) => node.source === 'ocr' && /Thank you/.test(node.name))).toBe(true);
  }, 60_000);

  it('deskpilot screenshot --ocr saves the PNG and prints the lines with their ids', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'deskpilot-shot-')), 'canvas.png');
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, 'node_modules/.bin/node'),
      [path.join(ROOT, 'bin/deskpilot.js'), 'screenshot', '--pid', String(app.pid), '--ocr', '--out', out, '--json'],
      {
        env: desktop.session.env,
        cwd: ROOT,
        timeout: 60_000,
      },
    );
    const printed = JSON.parse(stdout) as { file: string; width: number; ocr: { id: string; text: string }[] };
    expect(printed.file).toBe(out);
    expect(decodePng(readFileSync(out)).width).toBe(printed.width);
    expect(printed.ocr.map((line) => line.text)).toContain('Cancel');
    expect(printed.ocr.every((line) => /^[a-z]{5}$/.test(line.id))).toBe(true);
  }, 90_000);

  it('costs an app with a good tree no OCR', async () => {
    const fixture = await desktop.launchFixture();
    let reads = 0;
    const counted = withVision(desktop.platform);
    const vision = counted.vision as NonNullable<Platform['vision']>;
    const read = vision.read.bind(vision);
    vision.read = (pid) => ((reads += 1), read(pid));
    const watcher = new ActionEngine({ platform: counted });
    const { root } = await watcher.observe(fixture.pid, { fresh: true });
    expect([...walk(root)].some((node) => node.source === 'ocr')).toBe(false);
    expect(reads).toBe(0);
  }, 60_000);
});

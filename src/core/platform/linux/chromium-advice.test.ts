import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawNode } from '../../ui/ids';
import { serializeTree } from '../../ui/serialize';
import { buildTree } from '../../ui/ids';
import { bridgeOf } from './bridges';
import { chromiumAdvice, isChromiumShell } from './chromium-advice';

const node = (role: RawNode['role'], children: RawNode[] = []): RawNode => ({
  ref: null,
  role,
  platformRole: role,
  name: role,
  states: { enabled: true, focused: false },
  actions: [],
  ...(children.length > 0 ? { children } : {}),
});

describe('Chromium without --force-renderer-accessibility', () => {
  it('is told apart by a tree of windows with no document, on the Chromium toolkit only', () => {
    const shell = node('application', [node('window'), node('window')]);
    expect(isChromiumShell(bridgeOf('Chromium', '1.0'), shell)).toBe(true);
    expect(isChromiumShell(bridgeOf('GTK', '3.24'), shell)).toBe(false);
    expect(isChromiumShell(bridgeOf('Chromium', '1.0'), node('application', [node('window', [node('document')])]))).toBe(false);
  });

  it("says the app's own relaunch command with the flag, and the compact tree keeps that note", () => {
    const proc = mkdtempSync(path.join(tmpdir(), 'chromium-advice-'));
    mkdirSync(path.join(proc, '77'));
    // A rewritten process title: one space-joined string.
    writeFileSync(path.join(proc, '77', 'cmdline'), '/opt/app/app --no-first-run\0');
    const advice = chromiumAdvice(77, proc);
    expect(advice).toContain('/opt/app/app --force-renderer-accessibility --no-first-run');
    const root = buildTree({ ...node('application', [node('window')]), description: advice }).root;
    expect(serializeTree(root, { style: 'compact' })).toContain('note "This Chromium or Electron app was started without --force-renderer-accessibility');
  });
});

import { getEncoding } from 'js-tiktoken';
import { describe, expect, it } from 'vitest';
import { ROLES, type Role, type UiNode } from '../../shared/ui-node';
import { ActionEngine } from '../actions/engine';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { buildTree, type RawNode } from './ids';
import { serializeTree } from './serialize';
import { estimateTokens } from './token-estimate';

const encoding = getEncoding('o200k_base');
const real = (text: string): number => encoding.encode(text).length;

/** Names as GTK, Qt and Chromium apps show them: words, toolkit class names, numbers, paths, shortcuts. */
const NAMES = [
  'Save',
  'Save As…',
  'Open Recent',
  'Preferences',
  'GtkButton',
  'GtkScale',
  'checkbutton',
  'togglebutton',
  'emblem-important-symbolic',
  'Page 2',
  'Title 3',
  'Orville Redenbacher',
  'Search',
  'Find and Replace',
  'Line 12, Column 40',
  'Zoom 100%',
  'Document 1 - Mousepad',
  'comboboxentry',
  'Middle',
  'Select a file',
  '/home/user/report-2024.odt',
  'Ctrl+Shift+S',
  'Untitled',
  'Bold',
  'Font Size',
  'Wi-Fi',
  'Close',
  'Cancel',
  'OK',
  'Apply',
  'File',
  'Edit',
  'View',
  'Help',
  'Insert Special Character',
  'Spell check',
  'Show line numbers',
];
const STATES: Partial<UiNode['states']>[] = [
  {},
  { focused: true },
  { enabled: false },
  { checked: true },
  { checked: false },
  { selected: true },
  { expanded: false },
];

/** A deterministic pseudo-random tree of a realistic shape, so the test needs no display. */
function syntheticTree(count: number): UiNode {
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const roles = ROLES.filter((role) => role !== 'application');
  let made = 0;
  const make = (depth: number): RawNode => {
    made += 1;
    const role: Role = depth === 0 ? 'window' : pick(roles);
    const children: RawNode[] = [];
    while (made < count && depth < 6 && next() < (depth < 2 ? 0.95 : 0.55)) children.push(make(depth + 1));
    return {
      ref: made,
      role,
      platformRole: role,
      name: next() < 0.15 ? '' : pick(NAMES),
      ...(role === 'slider' || role === 'spinbutton' ? { value: Math.floor(next() * 100) } : role === 'textfield' ? { value: pick(NAMES) } : {}),
      states: { enabled: true, focused: false, ...pick(STATES) },
      actions: [],
      ...(children.length > 0 ? { children } : {}),
    };
  };
  return buildTree(make(0)).root;
}

describe('estimateTokens', () => {
  it.each(['compact', 'full'] as const)(
    'is within 12 percent of o200k_base on a serialized tree (%s lines), and within 20 percent on every 40-line part',
    (style) => {
      const text = serializeTree(syntheticTree(600), { maxNodes: Number.POSITIVE_INFINITY, maxTokens: Number.POSITIVE_INFINITY, style });
      const lines = text.split('\n');
      expect(lines.length).toBeGreaterThan(300);
      const ratio = estimateTokens(text) / real(text);
      expect(ratio).toBeGreaterThan(0.95); // a budget must not be overspent by much
      expect(ratio).toBeLessThan(1.12);
      for (let start = 0; start < lines.length; start += 40) {
        const part = lines.slice(start, start + 40).join('\n');
        expect(Math.abs(estimateTokens(part) / real(part) - 1), part).toBeLessThan(0.2);
      }
    },
  );

  it('is within 12% on the fake fixture app as the agent sees it', async () => {
    const platform = new FakePlatform();
    const { root } = await new ActionEngine({ platform, clock: new FakeClock() }).observe(FIXTURE_PID);
    const text = serializeTree(root, { maxNodes: Number.POSITIVE_INFINITY, maxTokens: Number.POSITIVE_INFINITY });
    expect(Math.abs(estimateTokens(text) / real(text) - 1)).toBeLessThan(0.12);
  });

  it.each([
    'The quick brown fox jumps over the lazy dog. Preferences… Save As… Ctrl+Shift+S',
    '/home/user/Documents/report-2024-final (copy).odt — LibreOffice Writer',
    'Größe ändern · naïve café — 東京都 日本語のテキスト',
    '12345 67890 3.14159 2024-11-22T01:15:36Z',
  ])('stays within 35 percent on other UI text: %s', (text) => {
    expect(Math.abs(estimateTokens(text) / real(text) - 1)).toBeLessThan(0.35);
  });

  it('counts nothing for nothing', () => {
    expect(estimateTokens('')).toBe(0);
  });
});

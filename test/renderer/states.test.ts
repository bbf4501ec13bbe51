/**
 * Every state the window can be in, each in both themes: a screenshot for a person to look at,
 * an axe-core check (0 serious or critical violations: the assistant is for people who may rely
 * on a screen reader), and no raw error code or IPC channel in the visible text.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { AXE_PATH, screenshot, stream } from './harness/browser';
import type { FakeBridgeOptions } from './harness/fake-bridge';
import { HISTORY, chunked, options, STATUS } from './harness/fixtures';
import { useHarness } from './harness/suite';

const harness = useHarness();

/** Error codes (`PROVIDER_CONNECTION`) and channel names (`agent:ask:`) must not reach the eye. */
const RAW_CODE = /\b[A-Z][A-Z_]{5,}\b/;
const CHANNEL = /\b[a-z]+:[a-z-]+:/;

async function ask(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Ask Deskpilot' }).fill(text);
  await page.keyboard.press('Enter');
  await page.locator('.message.user', { hasText: text }).waitFor();
}

const STATES: { name: string; overrides?: Partial<FakeBridgeOptions>; setUp?: (page: Page) => Promise<void> }[] = [
  { name: 'chat-empty' },
  { name: 'chat-history', overrides: { history: HISTORY } },
  {
    name: 'answer-streaming',
    setUp: async (page) => {
      await ask(page, 'Describe this window');
      await stream(page, chunked('ask-1', 'The window shows **notes.txt** with three paragraphs and a toolbar', 6).slice(0, 4));
      await page.locator('.message.assistant[aria-busy="true"]').waitFor();
    },
  },
  {
    name: 'working',
    setUp: async (page) => {
      await ask(page, 'Save it');
      await page.locator('.working').waitFor();
    },
  },
  {
    name: 'could-not-confirm',
    setUp: async (page) => {
      await ask(page, 'set the name');
      const events: AgentEvent[] = [
        { type: 'ai_chunk', askId: 'ask-1', delta: 'Name set.' },
        {
          type: 'done',
          askId: 'ask-1',
          answer: 'Name set.',
          stopped: false,
          reason: 'answered',
          check: { confirmed: false, notes: ['textfield "Name" changed back: its value is "", not "Ada"'] },
        },
      ];
      await stream(page, events);
      await page.locator('.check-warning').waitFor();
    },
  },
  {
    name: 'approval',
    setUp: async (page) => {
      await ask(page, 'delete the draft');
      await stream(page, [
        {
          type: 'approval_request',
          id: 'p1',
          askId: 'ask-1',
          callId: 'c1',
          tool: 'ui_action',
          summary: 'click k3x9a',
          reason: 'clicks "Delete"',
          why: { code: 'clicks', values: { name: '"Delete"' } },
          plan: { verb: 'click', target: 'Delete' },
          app: 'gedit',
        },
      ]);
      await page.locator('.approval-card.open').waitFor();
    },
  },
  { name: 'host-restart-banner', overrides: { status: { ...STATUS, host: 'failed', hostError: 'The automation host stopped 3 times in a row.' } } },
  {
    name: 'settings',
    setUp: async (page) => {
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.locator('#model').waitFor();
    },
  },
  { name: 'first-run', overrides: { status: { ...STATUS, configured: false } } },
  { name: 'permission-help', overrides: { status: { ...STATUS, accessibility: 'denied' } } },
];

interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[];
}

describe('every state of the window', () => {
  for (const state of STATES) {
    it(`${state.name}: no serious accessibility violation and no raw code, in both themes`, async () => {
      const problems: string[] = [];
      const backgrounds: unknown[] = [];
      // Set up once, in the light theme, then checked again in the dark one: the themes are CSS
      // alone (prefers-color-scheme), so switching the emulated scheme restyles the same state
      // without a second load and set-up, and axe, injected once, stays in the page.
      const { page } = await harness().open(options(state.overrides), { colorScheme: 'light' });
      await page.locator('.header .target-app').waitFor();
      await state.setUp?.(page);
      // From the app's own origin, which the page's CSP allows; evaluating its 500 KB source instead
      // compiled it again after every reload.
      await page.addScriptTag({ url: `${harness().url}${AXE_PATH}` });
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        backgrounds.push(await page.evaluate('getComputedStyle(document.body).backgroundColor'));
        await screenshot(page, `state-${state.name}-${theme}`);
        const visible = await page.locator('body').innerText();
        for (const pattern of [RAW_CODE, CHANNEL]) {
          const found = pattern.exec(visible);
          if (found !== null) problems.push(`${theme}: "${found[0]}" is visible`);
        }
        const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as AxeResult;
        for (const violation of result.violations) {
          if (violation.impact === 'serious' || violation.impact === 'critical')
            problems.push(`${theme}: ${violation.impact} ${violation.id} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
        }
      }
      expect(problems).toEqual([]);
      // The switch restyled the page: the dark check did not look at the light page again.
      expect(new Set(backgrounds).size).toBe(2);
    }, 60_000);
  }
});

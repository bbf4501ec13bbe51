import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { AgentEvent } from '../../../src/shared/agent-events';
import type { AppEvent } from '../../../src/shared/ipc';
import { buildRenderer } from './build';
import { fakeBridgeScript, type FakeBridgeOptions, type PageGlobal, type RecordedCall } from './fake-bridge';
import { DEFAULT_OPTIONS } from './fixtures';
import { serveStatic } from './server';

/** Debian's Chromium; as root it needs --no-sandbox (there is no user namespace sandbox for root). */
export const CHROMIUM = process.env['DESKPILOT_CHROMIUM'] ?? '/usr/bin/chromium';

export interface OpenSettings {
  colorScheme?: 'light' | 'dark';
  /** Appended to the page URL, e.g. `?markdownThrottleMs=0`. */
  query?: string;
}

export interface RendererHarness {
  /** Shared by every file in this worker: open contexts through newContext(), so they close with the file. */
  browser: Browser;
  /** The one page every open() reloads. */
  page: Page;
  url: string;
  /**
   * The app loaded afresh with the fake bridge answering from `options`. The same page is reused
   * (reloaded) across calls, because opening a page costs about a second on a busy machine.
   */
  open(options: FakeBridgeOptions, settings?: OpenSettings): Promise<{ page: Page; context: BrowserContext }>;
  /** A further context of the shared browser, closed with the harness. */
  newContext(options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>;
  /** Closes this file's contexts; the browser is shared by the worker's files. */
  close(): Promise<void>;
}

const ERRORS = new WeakMap<Page, string[]>();

/**
 * axe-core, served beside the app (see serveStatic) for page.addScriptTag: a script of the page's
 * own origin passes its CSP, and cached, it is compiled once, not again after every reload.
 */
export const AXE_PATH = 'test-tools/axe.min.js';

interface Shared {
  browser: Browser;
  url: string;
}

let shared: Promise<Shared> | undefined;

/**
 * One Chromium and one static server per worker process, launched on first use. When the
 * renderer files share a worker (isolate: false), each file after the first skips the launch and
 * the imports; every file still gets a context of its own (own storage, permissions and page), so
 * no state crosses files. Playwright kills the browser when the worker exits.
 */
function sharedBrowser(): Promise<Shared> {
  shared ??= (async () => {
    const [dir, browser] = await Promise.all([
      buildRenderer(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-gpu'] }),
    ]);
    const server = await serveStatic(dir, { [`/${AXE_PATH}`]: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
    browser.on('disconnected', () => {
      shared = undefined;
      void server.close();
    });
    return { browser, url: server.url };
  })();
  // A failed launch is not cached: the next file tries again.
  shared.catch(() => (shared = undefined));
  return shared;
}

/** Ends the shared browser and its server: for scripts (the benches), whose process must exit afterwards. */
export async function closeSharedBrowser(): Promise<void> {
  const current = await shared?.catch(() => undefined);
  await current?.browser.close();
}

export async function startHarness(viewport = { width: 420, height: 560 }): Promise<RendererHarness> {
  const { browser, url } = await sharedBrowser();
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await context.addInitScript({ content: fakeBridgeScript(DEFAULT_OPTIONS) });
  const page = await context.newPage();
  const errors: string[] = [];
  ERRORS.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A CSP violation shows up here; the tests fail on any.
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  const opened = new Set<BrowserContext>([context]);
  return {
    browser,
    page,
    url,
    async open(options, settings = {}) {
      await page.emulateMedia({ colorScheme: settings.colorScheme ?? 'light' });
      await page.evaluate((json) => sessionStorage.setItem('deskpilot-fake-options', json), JSON.stringify(options));
      await page.goto(`${url}${settings.query ?? ''}`);
      errors.length = 0;
      return { page, context };
    },
    newContext(options) {
      return browser.newContext(options).then((extra) => (opened.add(extra), extra));
    },
    async close() {
      // The browser stays for the worker's next file; what this file opened goes.
      await Promise.all([...opened].map((each) => each.close()));
    },
  };
}

export function pageErrors(page: Page): string[] {
  return ERRORS.get(page) ?? [];
}

export function calls(page: Page, name?: string): Promise<RecordedCall[]> {
  return page.evaluate((filter) => (globalThis as PageGlobal).__fake.calls.filter((call) => filter === undefined || call.name === filter), name);
}

/** Pushes agent events through the fake bridge, one per macrotask (`intervalMs` apart), and waits until all are sent. */
export function stream(page: Page, events: AgentEvent[], intervalMs = 0): Promise<void> {
  return page.evaluate(([list, interval]) => (globalThis as PageGlobal).__fake.stream(list, interval), [events, intervalMs] as const);
}

export function emit(page: Page, event: AppEvent): Promise<void> {
  return page.evaluate((appEvent) => (globalThis as PageGlobal).__fake.emit(appEvent), event);
}

export function renders(page: Page): Promise<{ at: number; length: number }[]> {
  return page.evaluate(() => (globalThis as PageGlobal).__fake.renders.slice());
}

const SCREENSHOTS = path.resolve(import.meta.dirname, '../../artifacts/screenshots');

/** Screenshots of the main states go to test/artifacts/screenshots/ (ignored by git) for a human to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

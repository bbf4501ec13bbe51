import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildRenderer } from './build';
import { fakeBridgeScript, type FakeBridgeOptions, type PageGlobal, type RecordedCall } from './fake-bridge';
import { serveStatic } from './server';

/** Debian's Chromium; as root it needs --no-sandbox (there is no user namespace sandbox for root). */
export const CHROMIUM = process.env['DESKPILOT_CHROMIUM'] ?? '/usr/bin/chromium';

export interface RendererHarness {
  browser: Browser;
  url: string;
  /** A fresh context (own storage, color scheme) with the fake bridge and the app loaded. */
  open(options: FakeBridgeOptions, settings?: { colorScheme?: 'light' | 'dark'; query?: string; width?: number; height?: number }): Promise<{ page: Page; context: BrowserContext }>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<RendererHarness> {
  const [dir, browser] = await Promise.all([
    buildRenderer(),
    chromium.launch({ executablePath: CHROMIUM, args: ['--headless=new', '--no-sandbox', '--disable-gpu'] }),
  ]);
  const server = await serveStatic(dir);
  return {
    browser,
    url: server.url,
    async open(options, settings = {}) {
      const context = await browser.newContext({
        viewport: { width: settings.width ?? 420, height: settings.height ?? 560 },
        colorScheme: settings.colorScheme ?? 'light',
        reducedMotion: 'reduce',
      });
      await context.addInitScript({ content: fakeBridgeScript(options) });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        // A CSP violation shows up here; the tests fail on any.
        if (message.type() === 'error') errors.push(message.text());
      });
      (page as Page & { errors?: string[] }).errors = errors;
      await page.goto(`${server.url}${settings.query ?? ''}`);
      return { page, context };
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

export function pageErrors(page: Page): string[] {
  return (page as Page & { errors?: string[] }).errors ?? [];
}

export function calls(page: Page, name?: string): Promise<RecordedCall[]> {
  return page.evaluate((filter) => (globalThis as PageGlobal).__fake.calls.filter((call) => filter === undefined || call.name === filter), name);
}

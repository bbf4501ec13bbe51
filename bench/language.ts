/**
 * bench:language — switching the chat window's language in Settings, in Chromium through the
 * real built renderer and the fake bridge: from the select's change event to the whole view
 * re-rendered in the other language (the Settings heading, the last text to change), beside a
 * full reload of the page in that language in the same run, the only other way to switch.
 */
import type { Page } from 'playwright-core';
import { closeSharedBrowser, startHarness } from '../test/renderer/harness/browser';
import { options, SETTINGS, STATUS } from '../test/renderer/harness/fixtures';

const ROUNDS = 20;

/** In the page: from the change event to the heading in the chosen language, in ms. */
const switchTimer = (heading: string) => `new Promise((resolve) => {
  document.getElementById('language').addEventListener('change', () => {
    const start = performance.now();
    const observer = new MutationObserver(() => {
      if (document.getElementById('settings-heading').textContent !== ${JSON.stringify(heading)}) return;
      observer.disconnect();
      resolve(performance.now() - start);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, { once: true });
})`;

async function openSettings(page: Page): Promise<void> {
  await page.locator('.header-buttons button').first().click();
  await page.locator('#language').waitFor();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const harness = await startHarness();
try {
  const { page } = await harness.open(options());
  await openSettings(page);
  const switches: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const [language, heading] = round % 2 === 0 ? (['pt-BR', 'Configurações'] as const) : (['en', 'Settings'] as const);
    const elapsed = page.evaluate(switchTimer(heading)) as Promise<number>;
    await page.locator('#language').selectOption(language);
    switches.push(await elapsed);
  }
  // The reference: the page loaded afresh in Portuguese, until the same Settings heading shows.
  const reloads: number[] = [];
  for (let round = 0; round < ROUNDS / 2; round += 1) {
    const start = performance.now();
    const { page: fresh } = await harness.open(options({ settings: { ...SETTINGS, language: 'pt-BR' }, status: STATUS }));
    await openSettings(fresh);
    await fresh.getByRole('heading', { name: 'Configurações' }).waitFor();
    reloads.push(performance.now() - start);
  }
  const switchMs = median(switches);
  const reloadMs = median(reloads);
  console.log(`switch (in place, ${ROUNDS} times): median ${switchMs.toFixed(1)} ms, max ${Math.max(...switches).toFixed(1)} ms`);
  console.log(`reload in the new language (reference, ${ROUNDS / 2} times): median ${reloadMs.toFixed(1)} ms`);
  console.log(
    `language_switch: median_ms=${switchMs.toFixed(1)} max_ms=${Math.max(...switches).toFixed(1)} reload_ms=${reloadMs.toFixed(1)} speedup_vs_reload=${(reloadMs / switchMs).toFixed(1)}`,
  );
} finally {
  await harness.close();
  await closeSharedBrowser();
}

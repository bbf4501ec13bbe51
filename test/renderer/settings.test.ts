import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calls, emit, pageErrors, screenshot } from './harness/browser';
import type { PageGlobal } from './harness/fake-bridge';
import { useHarness } from './harness/suite';
import { options, SETTINGS, STATUS } from './harness/fixtures';

const harness = useHarness();

async function openSettings(overrides: Parameters<typeof options>[0] = {}): Promise<Page> {
  const { page } = await harness().open(options(overrides));
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  await page.getByLabel('Model').waitFor();
  return page;
}

const SECRET = 'sk-or-v1-very-secret-key';

describe('settings', () => {
  it('saves only what changed and says so', async () => {
    const page = await openSettings();
    await page.getByLabel('Model').fill('anthropic/claude-sonnet-4');
    await page.getByLabel('Approvals').selectOption('confirm-all');
    await page.getByLabel('Open at login').check();
    await page.getByLabel('Chat entries kept').fill('500');
    await page.getByLabel('Vision (images)').selectOption('off');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([
      { model: 'anthropic/claude-sonnet-4', approvalPolicy: 'confirm-all', openAtLogin: true, historyLimit: 500, vision: 'off' },
    ]);
    await screenshot(page, 'settings');
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows the validation error main sends back', async () => {
    const page = await openSettings({ failures: { updateSettings: 'settings:update: invalid payload: Invalid URL' } });
    // Caught here first, under the field, naming it; nothing is sent.
    await page.getByLabel('Base URL').fill('localhost:11434');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.locator('#base-url-error').textContent()).resolves.toBe('Base URL must start with http:// or https://.');
    expect(await page.getByLabel('Base URL').getAttribute('aria-describedby')).toBe('base-url-note base-url-error');
    await screenshot(page, 'settings-field-error');
    expect(await calls(page, 'updateSettings')).toEqual([]);
    // What main refuses: in words, the channel and schema wording folded under Details.
    await page.getByLabel('Base URL').fill('http://localhost:11434/v1');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.locator('.form-error[role="alert"]');
    await expect(alert.locator('.failure-details').textContent()).resolves.toContain('Invalid URL');
    expect(await alert.innerText()).not.toContain('settings:update');
    await screenshot(page, 'settings-validation-error');
  });

  it('shows a setting by its schema alone: a number with its bounds, its error under it, its hint tied to it', async () => {
    const page = await openSettings();
    const steps = page.getByLabel('Most steps per question');
    expect(await steps.inputValue()).toBe('10');
    expect([await steps.getAttribute('min'), await steps.getAttribute('max')]).toEqual(['1', '100']);
    await steps.fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.locator('#max-steps-error').textContent()).resolves.toBe('Enter a whole number from 1 to 100.');
    expect(await steps.getAttribute('aria-describedby')).toBe('max-steps-note max-steps-error');
    expect(await calls(page, 'updateSettings')).toEqual([]);
    await steps.fill('25');
    await page.getByLabel('Never take my pointer or keyboard').check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ maxSteps: 25, keepDevices: true }]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows settings an environment variable overrides as read-only and never sends them', async () => {
    const page = await openSettings({
      settings: { ...SETTINGS, model: 'from-env', envOverrides: ['model', 'apiKey'], envVariables: { model: 'DESKPILOT_MODEL', apiKey: 'OPENROUTER_API_KEY' } },
    });
    const model = page.getByLabel('Model', { exact: true });
    expect(await model.getAttribute('readonly')).toBe('');
    expect(await model.getAttribute('aria-describedby')).toBe('model-note');
    await expect(page.locator('#model-note').textContent()).resolves.toBe('Set by DESKPILOT_MODEL, which overrides this setting.');
    await page.getByText('Set by OPENROUTER_API_KEY, which overrides this setting.').waitFor();
    expect(await page.getByRole('button', { name: 'Replace key' }).count()).toBe(0);
    await page.getByLabel('Approvals').selectOption('confirm-all');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ approvalPolicy: 'confirm-all' }]);
    await screenshot(page, 'settings-env-override');
  });

  it('records a hotkey from the keys pressed, saves it at once, and says when another app holds it', async () => {
    const page = await openSettings();
    const record = page.getByRole('button', { name: 'Record a shortcut' });
    await record.click();
    await page.getByText('Press the combination you want').waitFor();
    // A modifier alone records nothing yet; the whole combination does.
    await page.keyboard.down('Control');
    await page.keyboard.down('Alt');
    await page.keyboard.press('KeyK');
    await page.keyboard.up('Alt');
    await page.keyboard.up('Control');
    await page.getByText('Saved as the hotkey.').waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ hotkey: 'Control+Alt+K' }]);
    await expect(page.locator('.hotkey-current').textContent()).resolves.toBe('Control+Alt+K');
    await page.evaluate(() => {
      (globalThis as PageGlobal).__fake.options.failures = {
        updateSettings: 'VALIDATION: Control+Alt+J is already used by another app or the system, so Control+Alt+K stays the hotkey.',
      };
    });
    await record.click();
    await page.keyboard.press('Control+Alt+KeyJ');
    await expect(page.locator('.field-error[role="alert"]').textContent()).resolves.toBe(
      'Control+Alt+J is already used by another app or the system, so Control+Alt+K stays the hotkey.',
    );
    await expect(page.locator('.hotkey-current').textContent()).resolves.toBe('Control+Alt+K');
    await screenshot(page, 'settings-hotkey-taken');
  });

  it('edits the MCP servers as JSON, shows main’s refusal under the editor, and imports a Claude Desktop config', async () => {
    const page = await openSettings({ failures: { updateSettings: "VALIDATION: mcpServers: 'files.command' is required (string)" } });
    const editor = page.getByLabel('Servers, as JSON');
    await editor.fill('{ "mcpServers": { "files": { "args": [] } } }');
    await page.getByRole('button', { name: 'Save servers' }).click();
    await expect(page.locator('#mcp-servers-error').textContent()).resolves.toBe("mcpServers: 'files.command' is required (string)");
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    await page.evaluate(() => delete (globalThis as PageGlobal).__fake.options.failures);
    await page.getByRole('button', { name: 'Import from Claude Desktop or Cursor…' }).click();
    await expect.poll(() => editor.inputValue()).toContain('"TOKEN": "(stored)"');
    await page.getByText('Servers saved. They start on the next question.').waitFor();
    await screenshot(page, 'settings-mcp-servers');
  });

  it('lists the MCP tools allowed without asking, and revokes one', async () => {
    const toolAllowances = [{ server: 'files', tool: 'write_file', app: 'gedit' }, { server: 'mail' }];
    const page = await openSettings({ settings: { ...SETTINGS, toolAllowances } });
    const list = page.getByRole('list', { name: 'Allowed without asking' });
    await expect(list.getByRole('listitem').allInnerTexts()).resolves.toEqual([
      'write_file of files, in gedit\nRevoke',
      'Every tool of mail, in every app\nRevoke',
    ]);
    await screenshot(page, 'settings-tool-allowances');
    await page.getByRole('button', { name: 'Revoke: Every tool of mail, in every app' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ toolAllowances: [toolAllowances[0]] }]);
    await page.getByRole('button', { name: 'Revoke: write_file of files, in gedit' }).click();
    await page.getByText('No MCP tool runs without asking yet.', { exact: false }).waitFor();
  });

  it('only says whether a key is set, replaces it, and never shows it again', async () => {
    const page = await openSettings();
    await page.getByText('A key is set.').waitFor();
    await page.getByRole('button', { name: 'Replace key' }).click();
    const keyInput = page.getByLabel('New API key');
    expect(await keyInput.getAttribute('type')).toBe('password');
    await keyInput.fill(SECRET);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ apiKey: SECRET }]);
    expect(await page.getByLabel('New API key').count()).toBe(0);
    expect(await page.content()).not.toContain(SECRET);
    // Remove: apiKey null, and the view now says no key is set.
    await page.getByRole('button', { name: 'Remove key' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('No key is set.').waitFor();
    expect((await calls(page, 'updateSettings')).at(-1)?.payload).toEqual({ apiKey: null });
  });

  it('shows only the names of the extra headers, and replaces or removes them through a password input', async () => {
    const page = await openSettings({ settings: { ...SETTINGS, headerNames: ['Authorization', 'X-Title'] } });
    const headers = page.getByRole('group', { name: 'Extra headers' });
    await expect(headers.locator('.key-state').textContent()).resolves.toContain('Set: Authorization, X-Title.');
    expect(await page.getByRole('textbox', { name: /headers/i }).count()).toBe(0);
    await headers.getByRole('button', { name: 'Replace headers' }).click();
    const input = page.getByLabel('New headers');
    expect(await input.getAttribute('type')).toBe('password');
    await input.fill(`Authorization: Bearer ${SECRET}; X-Title: Deskpilot`);
    await screenshot(page, 'settings-headers');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ headers: `Authorization: Bearer ${SECRET}; X-Title: Deskpilot` }]);
    expect(await page.content()).not.toContain(SECRET);
    await headers.getByRole('button', { name: 'Remove headers' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await headers.getByText('No extra headers are set.').waitFor();
    expect((await calls(page, 'updateSettings')).at(-1)?.payload).toEqual({ headers: null });
  });

  it("opens when main shows the window for the tray's Settings item, and the hotkey brings the chat back", async () => {
    const { page } = await harness().open(options());
    await page.getByRole('textbox', { name: 'Ask Deskpilot' }).waitFor();
    await emit(page, { type: 'shown', view: 'settings' });
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByLabel('Model').waitFor();
    await emit(page, { type: 'shown' });
    const input = page.getByRole('textbox', { name: 'Ask Deskpilot' });
    await input.waitFor();
    await expect.poll(() => input.evaluate((element) => element.ownerDocument.activeElement === element)).toBe(true);
  });

  it('goes back to the chat', async () => {
    const page = await openSettings();
    await page.getByRole('button', { name: 'Back to chat' }).click();
    await page.getByRole('textbox', { name: 'Ask Deskpilot' }).waitFor();
  });
});

describe('first run', () => {
  it('asks for a key for a hosted provider and saves the choice', async () => {
    const { page } = await harness().open(options({ status: { ...STATUS, configured: false }, settings: { ...SETTINGS, hasApiKey: false } }));
    await page.getByRole('heading', { name: 'Welcome to Deskpilot' }).waitFor();
    await screenshot(page, 'first-run');
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('needs an API key');
    expect(await calls(page, 'updateSettings')).toEqual([]);
    await page.getByLabel('API key').fill(SECRET);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(async () => (await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ preset: 'openrouter', apiKey: SECRET }]);
    // Once saved, the view asks main for the status again.
    await expect.poll(async () => (await calls(page, 'status')).length).toBe(2);
  });

  it('says what main still misses, and says it again when Start was not enough', async () => {
    const configError = 'LM Studio needs a model name: set one in Settings or with DESKPILOT_MODEL.';
    const { page } = await harness().open(options({ status: { ...STATUS, configured: false, configError } }));
    await page.getByRole('heading', { name: 'Welcome to Deskpilot' }).waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(`The model provider is not set up. ${configError}`);
    await screenshot(page, 'first-run-config-error');
    await page.getByRole('radio', { name: /LM Studio/ }).check();
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(async () => (await calls(page, 'status')).length).toBe(2);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(`The model provider is not set up. ${configError}`);
    await page.getByRole('heading', { name: 'Welcome to Deskpilot' }).waitFor();
  });

  it('does not sit silently when saving did not make a model reachable and main gives no reason', async () => {
    const { page } = await harness().open(options({ status: { ...STATUS, configured: false } }));
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('radio', { name: /Ollama/ }).check();
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('cannot use this provider yet');
  });

  it('needs no key for a local server', async () => {
    const { page } = await harness().open(options({ status: { ...STATUS, configured: false } }));
    await page.getByRole('radio', { name: /Ollama/ }).check();
    expect(await page.getByLabel('API key').count()).toBe(0);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(async () => (await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ preset: 'ollama' }]);
  });
});

describe('permission help', () => {
  it('explains the Accessibility grant and opens System Settings', async () => {
    const { page } = await harness().open(options({ status: { ...STATUS, accessibility: 'denied' } }));
    await page.getByRole('heading', { name: 'Deskpilot needs Accessibility access' }).waitFor();
    await screenshot(page, 'permission-help');
    await page.getByRole('button', { name: 'Open Accessibility settings' }).click();
    await expect.poll(async () => (await calls(page, 'openPermissionSettings')).length).toBe(1);
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(async () => (await calls(page, 'status')).length).toBe(2);
  });

  it('documentation search: sources and folders apply at once, the index reports progress live, and a rebuild is one click', async () => {
    const page = await openSettings();
    const status = page.locator('.docs-status');
    await status.getByText('12 files, 1 skipped, 40 sections, 176 KB').waitFor();
    await page.getByLabel("The app's man pages").uncheck();
    await page.getByRole('button', { name: 'Remove /home/ada/Notes' }).click();
    await page.getByRole('button', { name: 'Add folder…' }).click();
    await page.getByText('/home/ada/Manuals').waitFor();
    expect((await calls(page, 'updateSettings')).map((call) => call.payload)).toEqual([{ docsManPages: false }, { docsFolders: [] }]);
    expect(await calls(page, 'addDocsFolder')).toHaveLength(1);
    await emit(page, {
      type: 'docs',
      status: {
        files: 3,
        skipped: 0,
        sections: 9,
        sizeBytes: 4096,
        updatedAt: null,
        indexing: { done: 3, total: 10 },
        embedding: { model: 'nomic-embed-text', embedded: 0, total: 9 },
      },
    });
    await status.getByText('Indexing: 3 of 10 files…').waitFor();
    await status.getByText('Embedding with nomic-embed-text: 0 of 9 sections; full-text search until then.').waitFor();
    expect(await page.getByRole('button', { name: 'Rebuild index' }).isDisabled()).toBe(true);
    await emit(page, { type: 'docs', status: { files: 10, skipped: 0, sections: 30, sizeBytes: 8192, updatedAt: null, indexing: null, embedding: null } });
    await page.getByRole('button', { name: 'Rebuild index' }).click();
    expect(await calls(page, 'rebuildDocs')).toHaveLength(1);
    await screenshot(page, 'settings-docs');
    expect(pageErrors(page)).toEqual([]);
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { foldAgentEvents } from '../../src/shared/transcript';
import { calls, emit, pageErrors, renders, screenshot, stream, type OpenSettings } from './harness/browser';
import { fakeBridgeScript, type PageGlobal } from './harness/fake-bridge';
import { useHarness } from './harness/suite';
import { DEFAULT_OPTIONS, STATUS, answer, chunked, options, uiActionResult } from './harness/fixtures';

const harness = useHarness();

async function openChat(overrides: Parameters<typeof options>[0] = {}, settings: OpenSettings = {}): Promise<Page> {
  const { page } = await harness().open(options(overrides), settings);
  await page.getByRole('textbox', { name: 'Ask Deskpilot' }).waitFor();
  return page;
}

async function askQuestion(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Ask Deskpilot' }).fill(text);
  await page.keyboard.press('Enter');
  await page.locator('.message.user', { hasText: text }).waitFor();
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });

describe('streaming', () => {
  it('renders the first chunk at once, then at most every 50 ms, and the whole answer at the end', async () => {
    // Its own page, on a clock the test moves: the throttle is judged by what the page's time allows,
    // never by how fast this machine is. (The fake clock stubs performance marks, so what is on screen is read instead.)
    // A context of its own: a clock is installed on the whole context, and the other tests read real performance marks.
    const context = await harness().newContext({ viewport: { width: 420, height: 560 }, reducedMotion: 'reduce' });
    await context.addInitScript({ content: fakeBridgeScript(DEFAULT_OPTIONS) });
    const page = await context.newPage();
    try {
      await page.clock.install({ time: 0 });
      await page.goto(harness().url);
      await page.getByRole('textbox', { name: 'Ask Deskpilot' }).waitFor();
      await askQuestion(page, 'describe this window');
      // Time stands still from here; only runFor moves it.
      await page.clock.pauseAt(10_000_000);
      const shown = () => page.locator('.message.assistant .markdown').innerText();
      const text = Array.from({ length: 30 }, (_, index) => `Line **${index}** of the answer with \`code\`.`).join('\n\n');
      const chunks = chunked('ask-1', text, 150);
      await stream(page, chunks.slice(0, 1));
      await page.locator('.message.assistant .markdown').waitFor();
      const first = await shown();
      expect(first).toMatch(/^Line/);
      expect(await log(page).getAttribute('aria-live')).toBe('polite');
      // The focusable scroller is a named region around the log.
      const conversation = page.getByRole('region', { name: 'Conversation' });
      expect(await conversation.getAttribute('tabindex')).toBe('0');
      expect(await conversation.getByRole('log', { name: 'Messages' }).count()).toBe(1);
      // 74 more chunks while the page's clock stands still: the screen keeps the first (unthrottled, each would show).
      await stream(page, chunks.slice(1, 75));
      await page.clock.runFor(49);
      expect(await shown()).toBe(first);
      // At 50 ms the latest text shows, in one render.
      await page.clock.runFor(1);
      await expect.poll(shown).toContain('Line 14');
      const second = await shown();
      await stream(page, chunks.slice(75));
      await page.clock.runFor(49);
      expect(await shown()).toBe(second);
      await page.clock.runFor(1);
      await expect.poll(shown).toContain('Line 29');
      // The end of the answer renders at once, whatever the clock says.
      await stream(page, [
        { type: 'ai_response', askId: 'ask-1', text, toolCalls: [], finishReason: 'stop' },
        { type: 'done', askId: 'ask-1', answer: text, stopped: false, reason: 'answered' },
      ]);
      await expect.poll(shown).toContain('Line 29 of the answer with code.');
      expect(await page.locator('.message.assistant strong').count()).toBe(30);
    } finally {
      await context.close();
    }
  });

  it('re-renders only the streaming answer, not the finished ones', async () => {
    const page = await openChat();
    await askQuestion(page, 'first');
    await stream(page, answer('ask-1', 'The **first** answer.'));
    await page.getByText('The first answer.').waitFor();
    const before = (await renders(page)).length;
    await askQuestion(page, 'second');
    await stream(page, answer('ask-2', 'A second answer, longer than the first one.', 10), 2);
    await page.getByText('A second answer, longer than the first one.').waitFor();
    const after = (await renders(page)).slice(before);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((render) => render.length !== 'The **first** answer.'.length)).toBe(true);
  });

  it('shows the end-state warning when the check did not confirm the actions', async () => {
    const page = await openChat();
    await askQuestion(page, 'save it');
    await stream(page, [
      { type: 'ai_chunk', askId: 'ask-1', delta: 'Saved.' },
      {
        type: 'done',
        askId: 'ask-1',
        answer: 'Saved.',
        stopped: false,
        reason: 'answered',
        check: { confirmed: false, notes: ['The title still shows unsaved changes.'] },
      },
    ]);
    await expect(page.locator('.check-warning').textContent()).resolves.toContain('The title still shows unsaved changes.');
  });
});

describe('an empty chat', () => {
  it('offers what to ask about this app: one click asks, a form suggestion waits in the input for the details', async () => {
    const page = await openChat({ status: { ...options().status, suggestions: ['whatCanIDo', 'fillForm', 'summarize'] } });
    const list = page.getByRole('list', { name: 'Suggestions' });
    expect(await list.getByRole('button').allTextContents()).toEqual(['What can I do here?', 'Fill this form…', 'Summarize this window']);
    await screenshot(page, 'chat-suggestions');
    await list.getByRole('button', { name: 'Fill this form…' }).click();
    const input = page.getByRole('textbox', { name: 'Ask Deskpilot' });
    await expect.poll(() => input.inputValue()).toBe('Fill this form with ');
    expect(await calls(page, 'ask')).toEqual([]);
    await input.fill('');
    await list.getByRole('button', { name: 'What can I do here?' }).click();
    await page.locator('.message.user', { hasText: 'What can I do here?' }).waitFor();
    expect((await calls(page, 'ask')).map((call) => call.payload)).toEqual([{ text: 'What can I do here?' }]);
  });
});

describe('scrolling', () => {
  it('follows new content at the bottom, stops when the user scrolls up, and jumps back', async () => {
    const history = foldAgentEvents(
      Array.from({ length: 12 }, (_, index): AgentEvent[] => [
        { type: 'ask', askId: `old-${index}`, text: `Old question ${index}`, pid: 1 },
        ...answer(`old-${index}`, `Old answer ${index}\n\n- one\n- two\n- three`),
      ]).flat(),
      1,
    );
    const page = await openChat({ history });
    const scroller = page.locator('.message-scroller');
    const distance = () => scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    await askQuestion(page, 'long one');
    await stream(page, chunked('ask-1', 'word '.repeat(400), 40), 2);
    await expect.poll(distance).toBeLessThanOrEqual(8);
    await expect(page.getByRole('button', { name: 'Jump to latest' }).count()).resolves.toBe(0);

    await scroller.hover();
    await page.mouse.wheel(0, -600);
    await page.getByRole('button', { name: 'Jump to latest' }).waitFor();
    const top = await scroller.evaluate((element) => element.scrollTop);
    await stream(page, chunked('ask-1', 'more '.repeat(300), 20), 2);
    // Not a fixed wait: until the last chunk is on screen (past the render throttle), then two
    // frames, so the resize a following list would have scrolled on has been seen.
    const answerText = page.locator('.message.assistant .markdown').last();
    await expect.poll(async () => (await answerText.innerText()).match(/\bmore\b/g)?.length).toBe(300);
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await scroller.evaluate((element) => element.scrollTop)).toBe(top);
    await screenshot(page, 'chat-jump-to-latest');

    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await expect.poll(distance).toBeLessThanOrEqual(8);
    await expect(page.getByRole('button', { name: 'Jump to latest' }).count()).resolves.toBe(0);
    await stream(page, chunked('ask-1', 'end '.repeat(200), 10), 2);
    await expect.poll(distance).toBeLessThanOrEqual(8);
  });
  it('keeps following when the scroller itself shrinks: a growing input, a smaller window', async () => {
    const history = foldAgentEvents(
      Array.from({ length: 12 }, (_, index): AgentEvent[] => [
        { type: 'ask', askId: `old-${index}`, text: `Old question ${index}`, pid: 1 },
        ...answer(`old-${index}`, `Old answer ${index}`),
      ]).flat(),
      1,
    );
    const page = await openChat({ history });
    const scroller = page.locator('.message-scroller');
    const distance = () => scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    await askQuestion(page, 'first line');
    await expect.poll(distance).toBeLessThanOrEqual(8);
    const input = page.getByRole('textbox', { name: 'Ask Deskpilot' });
    await input.focus();
    for (let line = 0; line < 5; line += 1) {
      await page.keyboard.type(`line ${line}`);
      await page.keyboard.press('Shift+Enter');
    }
    await expect.poll(distance).toBeLessThanOrEqual(8);
    const viewport = page.viewportSize() ?? { width: 420, height: 560 };
    try {
      await page.setViewportSize({ width: viewport.width, height: viewport.height - 150 });
      await expect.poll(distance).toBeLessThanOrEqual(8);
    } finally {
      await page.setViewportSize(viewport);
    }
    await expect(page.getByRole('button', { name: 'Jump to latest' }).count()).resolves.toBe(0);
  });
});

describe('tool cards and approvals', () => {
  const toolEvents: AgentEvent[] = [
    { type: 'ai_request', askId: 'ask-1', iteration: 1, messageCount: 3 },
    { type: 'ai_chunk', askId: 'ask-1', delta: 'I will save the document.' },
    { type: 'ai_response', askId: 'ask-1', text: 'I will save the document.', toolCalls: [], finishReason: 'tool_calls' },
    // The gists are what the tools say of these calls (core/tools/gist.ts); the window shows them, never knowing a tool by name.
    {
      type: 'tool_call',
      askId: 'ask-1',
      callId: 'c1',
      name: 'ui_find',
      arguments: '{"role":"button","name":"Save"}',
      gist: { verb: 'find', target: 'Save', quoted: true, key: 'role="button" name="Save"' },
    },
    { type: 'tool_result', askId: 'ask-1', callId: 'c1', name: 'ui_find', success: true, message: '1 match: k3x9a button "Save"' },
    {
      type: 'tool_call',
      askId: 'ask-1',
      callId: 'c2',
      name: 'ui_action',
      arguments: '{"action":"click","id":"k3x9a"}',
      gist: { verb: 'click', unnamed: 'element', key: 'click k3x9a' },
    },
    { type: 'tool_log', askId: 'ask-1', callId: 'c2', text: 'resolved k3x9a → Save button' },
    {
      type: 'tool_result',
      askId: 'ask-1',
      callId: 'c2',
      name: 'ui_action',
      success: true,
      message: 'click done via accessibility; changed: title',
      data: uiActionResult('Save', 'button', true),
    },
    {
      type: 'tool_call',
      askId: 'ask-1',
      callId: 'c3',
      name: 'ui_action',
      arguments: '{"action":"set_value","id":"z1","value":"x"}',
      gist: { verb: 'set_value', value: 'x', unnamed: 'element', key: 'set_value z1 value="x"' },
    },
    {
      type: 'tool_result',
      askId: 'ask-1',
      callId: 'c3',
      name: 'ui_action',
      success: false,
      message: "set_value failed: NOT_SETTABLE: element does not support set_value; try 'type'",
    },
  ];

  it('shows each call as a compact card that expands to arguments, result and log', async () => {
    const page = await openChat();
    await askQuestion(page, 'save the document');
    await stream(page, toolEvents);
    const cards = page.locator('.tool-card');
    await expect.poll(() => cards.count()).toBe(3);
    await expect(cards.nth(0).locator('.tool-summary').textContent()).resolves.toBe('Looked for “Save”');
    await expect(cards.nth(1).locator('.tool-summary').textContent()).resolves.toBe('Clicked Save button');
    await expect(cards.nth(1).locator('.tool-summary strong').textContent()).resolves.toBe('Save button');
    await expect(cards.nth(2).locator('.tool-status').textContent()).resolves.toBe('Failed');
    // A failed card says why while closed, without the code; method and ids wait inside.
    await expect(cards.nth(2).locator('summary').textContent()).resolves.toContain('Did not work: That element cannot take a value directly.');
    // Keyboard: Tab to the card's summary and open it with Enter.
    await cards.nth(1).locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(cards.nth(1).getAttribute('open')).resolves.toBe('');
    const details = await cards.nth(1).locator('.tool-details').textContent();
    expect(details).toContain('"action": "click"');
    expect(details).toContain('resolved k3x9a → Save button');
    expect(details).toContain('click done via accessibility');
    await stream(page, [
      { type: 'ai_chunk', askId: 'ask-1', delta: 'Saved **notes.txt**.' },
      { type: 'done', askId: 'ask-1', answer: 'Saved **notes.txt**.', stopped: false, reason: 'answered', check: { confirmed: true, notes: [] } },
    ]);
    await page.getByText('Checked: the app shows the result.').waitFor();
    await screenshot(page, 'chat-tool-cards');
  });

  /** Waits until the open card's Deny button has the keyboard. */
  const denyFocused = (page: Page) =>
    expect
      .poll(() =>
        page.evaluate(
          () => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent,
        ),
      )
      .toBe('Deny N');

  it('asks in plain words with Deny as the default, and takes answers from buttons and keys', async () => {
    const page = await openChat();
    await askQuestion(page, 'delete the draft');
    const requests = (['a1', 'a2', 'a3', 'a4'] as const).map((id): AgentEvent => ({
      type: 'approval_request',
      id,
      askId: 'ask-1',
      callId: `call-${id}`,
      tool: 'ui_action',
      summary: `click ${id}`,
      reason: 'clicks "Delete"',
      why: { code: 'clicks', values: { name: '"Delete"' } },
      plan: { verb: 'click', target: 'Delete' },
      app: 'gedit',
    }));
    await stream(page, requests.slice(0, 1));
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.getByRole('button', { name: 'Allow once' }).waitFor();
    // Announced at once: an alert, and the log around it is not busy while the ask runs.
    await expect(card.getByRole('alert').textContent()).resolves.toBe(
      'Click Delete in gedit?"Delete" may delete, send or buy something, which cannot always be undone',
    );
    await expect(card.locator('.approval-title strong').textContent()).resolves.toBe('Delete');
    // The tool and its arguments (ids) only under Details.
    expect(await card.locator('.approval-title, .approval-reason').allInnerTexts()).not.toContain('a1');
    expect(await log(page).getAttribute('aria-busy')).toBeNull();
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
    // Deny is the default: it has the focus, so Enter denies; nothing is red.
    await denyFocused(page);
    expect(await card.locator('button.danger').count()).toBe(0);
    await screenshot(page, 'chat-approval');
    await page.keyboard.press('Enter');
    await card.getByText('Denied').waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);
    await stream(page, requests.slice(1, 2));
    await denyFocused(page);
    await page.keyboard.press('y');
    await page.getByText('Allowed once').waitFor();
    await stream(page, requests.slice(2, 3));
    await denyFocused(page);
    await page.keyboard.press('a');
    await page.getByText('Allowed for this app').waitFor();
    await stream(page, requests.slice(3));
    await page.getByRole('region', { name: 'Approval needed' }).nth(3).getByRole('button', { name: 'Allow once' }).click();
    expect((await calls(page, 'approve')).map((call) => call.payload)).toEqual([
      { id: 'a1', decision: 'deny' },
      { id: 'a2', decision: 'allow_once' },
      { id: 'a3', decision: 'allow_app' },
      { id: 'a4', decision: 'allow_once' },
    ]);
  });

  it('names the MCP server and tool, and lets the user allow the tool or its whole server for good', async () => {
    const page = await openChat();
    await askQuestion(page, 'save the notes');
    const request = (id: string): AgentEvent => ({
      type: 'approval_request',
      id,
      askId: 'ask-1',
      callId: `call-${id}`,
      tool: 'files__write_file',
      summary: '{"path":"notes.txt"}',
      reason: 'files › write_file is a tool from one of your MCP servers that is not marked read-only, so it may change things',
      why: { code: 'external', values: { tool: 'files › write_file' } },
      plan: { verb: 'run', target: 'files › write_file', value: '{"path":"notes.txt"}' },
      app: 'gedit',
      external: { server: 'files', tool: 'write_file' },
    });
    await stream(page, [request('a1')]);
    const card = page.getByRole('region', { name: 'Approval needed' });
    await card.getByText('write_file, a tool of the MCP server files').waitFor();
    await denyFocused(page);
    await screenshot(page, 'chat-approval-external');
    await card.getByRole('button', { name: 'Always allow' }).click();
    await card.getByText('Always allowed').waitFor();
    await stream(page, [request('a2')]);
    const second = page.getByRole('region', { name: 'Approval needed' }).nth(1);
    await second.getByLabel('Every tool of files').check();
    // The single key "for this app" widens too; "always" takes a click.
    await page.keyboard.press('a');
    await second.getByText('Every tool of this server allowed for this app').waitFor();
    expect((await calls(page, 'approve')).map((call) => call.payload)).toEqual([
      { id: 'a1', decision: 'allow_always' },
      { id: 'a2', decision: 'allow_server_app' },
    ]);
    // A built-in tool's card offers neither.
    await stream(page, [
      { type: 'approval_request', id: 'a3', askId: 'ask-1', callId: 'c3', tool: 'ui_close_window', summary: '{}', reason: 'closes a window' },
    ]);
    const third = page.getByRole('region', { name: 'Approval needed' }).nth(2);
    await third.getByRole('button', { name: 'Allow once' }).waitFor();
    expect(await third.getByRole('button', { name: 'Always allow' }).count()).toBe(0);
    expect(await third.getByRole('checkbox').count()).toBe(0);
  });

  it('offers the buttons again when main refuses the answer', async () => {
    const page = await openChat({ failures: { approve: 'agent:approve: no such approval' } });
    await askQuestion(page, 'close it');
    await stream(page, [
      { type: 'approval_request', id: 'a1', askId: 'ask-1', callId: 'c1', tool: 'ui_close_window', summary: 'close "notes.txt"', reason: 'closes a window' },
    ]);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Could not answer: The request was not valid.').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Deny' }).isEnabled()).toBe(true);
  });
});

describe('stop, errors and notices', () => {
  it('says so when the history cannot be loaded, and still works', async () => {
    const page = await openChat({ failures: { history: 'history:get: store unreadable' } });
    await page.getByText('Could not load the history: The request was not valid.').waitFor();
    // The channel and main's words wait under Details, for a bug report.
    await expect(page.locator('.notice .failure-details code').textContent()).resolves.toBe('VALIDATION: history:get: store unreadable');
    await askQuestion(page, 'still there?');
  });

  it('stops from the Stop button; Esc hides the window and stops a running ask with it', async () => {
    const page = await openChat();
    await askQuestion(page, 'long task');
    await stream(page, [{ type: 'ai_chunk', askId: 'ask-1', delta: 'Working on' }]);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(async () => (await calls(page, 'stop')).length).toBe(1);
    expect(await calls(page, 'hideWindow')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await calls(page, 'hideWindow')).length).toBe(1);
    expect(await calls(page, 'stop')).toHaveLength(2);
    await stream(page, [{ type: 'done', askId: 'ask-1', answer: '', stopped: true, reason: 'stopped' }]);
    await page.locator('.message.assistant .badge', { hasText: 'Interrupted' }).waitFor();
    await expect(page.getByRole('button', { name: 'Stop' }).count()).resolves.toBe(0);
    // Idle, Esc only hides.
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await calls(page, 'hideWindow')).length).toBe(2);
    expect(await calls(page, 'stop')).toHaveLength(2);
  });

  it('shows an error inline, keeps the partial answer, and retries the question', async () => {
    const page = await openChat();
    await askQuestion(page, 'summarize the document');
    await stream(page, [
      { type: 'ai_chunk', askId: 'ask-1', delta: 'The document is about' },
      { type: 'error', askId: 'ask-1', error: { code: 'PROVIDER_CONNECTION', message: 'could not reach openrouter.ai', isRetryable: true } },
    ]);
    const alert = page.locator('.error-entry');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('could not reach openrouter.ai');
    await page.locator('.message.assistant .badge', { hasText: 'Interrupted' }).waitFor();
    await page.getByText('The document is about').waitFor();
    await emit(page, { type: 'notice', level: 'error', text: 'The automation host restarted; the conversation was kept.' });
    await page.getByText('The automation host restarted').waitFor();
    await screenshot(page, 'chat-error');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect
      .poll(async () => (await calls(page, 'ask')).map((call) => call.payload))
      .toEqual([{ text: 'summarize the document' }, { text: 'summarize the document' }]);
  });

  it('keeps the question in the input when main refuses it, and sends it again with Retry', async () => {
    const page = await openChat({ failures: { ask: 'agent:ask: the automation host is restarting' } });
    const input = page.getByRole('textbox', { name: 'Ask Deskpilot' });
    await input.fill('open the file menu');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert').filter({ hasText: 'Could not send: The request was not valid.' });
    await alert.waitFor();
    expect(await input.inputValue()).toBe('open the file menu');
    expect(await log(page).getByText('Could not ask').count()).toBe(0);
    await screenshot(page, 'chat-send-failed');
    await page.evaluate(() => delete (globalThis as PageGlobal).__fake.options.failures?.ask);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.locator('.message.user', { hasText: 'open the file menu' }).waitFor();
    await expect.poll(() => input.inputValue()).toBe('');
    expect(await alert.count()).toBe(0);
    expect((await calls(page, 'ask')).map((call) => call.payload)).toEqual([{ text: 'open the file menu' }, { text: 'open the file menu' }]);
    expect(await input.evaluate((element) => element.ownerDocument.activeElement === element)).toBe(true);
  });

  it('clears the history only after confirming', async () => {
    const page = await openChat();
    await askQuestion(page, 'hello');
    await page.getByRole('button', { name: 'Clear history' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Clear the whole chat history?' });
    await dialog.waitFor();
    // Esc cancels the confirmation (and neither stops nor hides).
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    expect(await calls(page, 'clearHistory')).toEqual([]);
    expect(await calls(page, 'hideWindow')).toEqual([]);
    await page.getByRole('button', { name: 'Clear history' }).click();
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(async () => (await calls(page, 'clearHistory')).length).toBe(1);
    await expect(page.locator('.message.user').count()).resolves.toBe(0);
  });
});

describe('keyboard and layout', () => {
  it('sends with Enter, adds a line with Shift+Enter, and grows the input', async () => {
    const page = await openChat();
    const input = page.getByRole('textbox', { name: 'Ask Deskpilot' });
    await input.focus();
    const height = () => input.evaluate((element) => element.getBoundingClientRect().height);
    const oneLine = await height();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('third line');
    expect(await input.inputValue()).toBe('first line\nsecond line\nthird line');
    expect(await height()).toBeGreaterThan(oneLine + 30);
    expect(await calls(page, 'ask')).toEqual([]);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await calls(page, 'ask')).map((call) => call.payload)).toEqual([{ text: 'first line\nsecond line\nthird line' }]);
    expect(await input.inputValue()).toBe('');
    // The question's own copy button comes with the echoed message; tab only once it is there.
    await page.getByRole('button', { name: 'Copy question' }).waitFor();
    // Every control is reachable with Tab and has a name.
    const names: string[] = [];
    for (let index = 0; index < 9; index += 1) {
      await page.keyboard.press('Tab');
      names.push(
        await page.evaluate(() => {
          const focused = (
            globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null; textContent: string | null } | null } }
          ).document.activeElement;
          return focused?.getAttribute('aria-label') ?? focused?.textContent ?? '';
        }),
      );
    }
    expect(names).toEqual(expect.arrayContaining(['Settings', 'Clear history', 'Hide window', 'Ask Deskpilot', 'Copy question']));
  });

  it('focuses the input when main shows the window, and copies a message', async () => {
    const page = await openChat();
    await askQuestion(page, 'copy me');
    await stream(page, answer('ask-1', 'The **answer** to copy.'));
    await page.getByRole('button', { name: 'Copy answer' }).click();
    await page.getByRole('button', { name: 'Copy answer' }).getByText('Copied').waitFor();
    const clipboard = await page.evaluate(() =>
      (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
    );
    expect(clipboard).toBe('The **answer** to copy.');
    await page.getByRole('button', { name: 'Settings' }).focus();
    await emit(page, { type: 'shown' });
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Ask Deskpilot' }).evaluate((element) => element.ownerDocument.activeElement === element))
      .toBe(true);
  });

  it('shows the target app and the hotkey error in the header area', async () => {
    const page = await openChat({
      status: { ...options().status, hotkey: { accelerator: 'Alt+Space', registered: false, error: 'Another app already uses Alt+Space.' } },
    });
    await expect(page.locator('header').textContent()).resolves.toContain('gedit');
    await expect(page.locator('header').textContent()).resolves.toContain('notes.txt — ~/Documents');
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('Another app already uses Alt+Space.');
    await emit(page, { type: 'status', status: { ...options().status, target: { pid: 7, app: 'Firefox', title: 'Inbox' } } });
    await page.locator('header', { hasText: 'Firefox' }).waitFor();
  });

  it('says when the automation host was given up on, and restarts it', async () => {
    const page = await openChat({ status: { ...options().status, host: 'failed', hostError: 'It crashed 5 times in a row.' } });
    const banner = page.getByRole('alert').filter({ hasText: 'The automation host stopped: It crashed 5 times in a row.' });
    await banner.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(async () => (await calls(page, 'restartHost')).length).toBe(1);
  });

  it('renders in the dark theme', async () => {
    const page = await openChat({}, { colorScheme: 'dark' });
    await askQuestion(page, 'what is on screen?');
    await stream(page, [
      {
        type: 'tool_call',
        askId: 'ask-1',
        callId: 'c1',
        name: 'ui_action',
        arguments: '{"action":"click","id":"k3x9a"}',
        gist: { verb: 'click', unnamed: 'element', key: 'click k3x9a' },
      },
      {
        type: 'tool_result',
        askId: 'ask-1',
        callId: 'c1',
        name: 'ui_action',
        success: true,
        message: 'ok',
        data: uiActionResult('Bold', 'toggle button', true),
      },
      ...answer(
        'ask-1',
        'A text editor with **notes.txt**:\n\n```python\ndef hello():\n    return "world"\n```\n\n| Field | Value |\n|---|---|\n| Font | Monospace |',
      ),
    ]);
    await page.getByText('A text editor with').waitFor();
    const background = await page.locator('body').evaluate((body) => body.ownerDocument.defaultView?.getComputedStyle(body).backgroundColor);
    expect(background).toBe('rgb(23, 24, 27)');
    await screenshot(page, 'chat-dark');
  });
});

describe('markdown safety', () => {
  it('shows HTML in an answer as text and never makes javascript: links clickable', async () => {
    const page = await openChat();
    await askQuestion(page, 'try to break it');
    const hostile = [
      'Here: <script>window.__pwned = 1</script>',
      '<img src="x" onerror="window.__pwned = 2">',
      '[click me](javascript:window.__pwned=3) and [data](data:text/html,<b>x</b>)',
      'A real link: [docs](https://example.com/docs) and a plain one http://example.com/insecure',
    ].join('\n\n');
    await stream(page, answer('ask-1', hostile));
    const markdown = page.locator('.message.assistant .markdown');
    await markdown.getByText('A real link').waitFor();
    expect(await markdown.locator('script, img, iframe, object').count()).toBe(0);
    expect(await markdown.textContent()).toContain('<script>window.__pwned = 1</script>');
    expect(await markdown.textContent()).toContain('<img src="x" onerror="window.__pwned = 2">');
    expect(await markdown.locator('a[href^="javascript:"], a[href^="data:"]').count()).toBe(0);
    await markdown.getByText('click me').click();
    const url = page.url();
    await markdown.getByRole('link', { name: 'docs' }).click();
    await markdown.getByRole('link', { name: 'http://example.com/insecure' }).click();
    expect(page.url()).toBe(url);
    expect((await calls(page, 'openExternal')).map((call) => call.payload)).toEqual([{ url: 'https://example.com/docs' }]);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(pageErrors(page)).toEqual([]);
  });
});

describe('an app started without accessibility', () => {
  const RELAUNCH = { app: 'Notes', command: '/opt/notes/notes --force-renderer-accessibility --no-first-run' };
  const withOffer = (language: 'en' | 'pt-BR') => ({
    status: { ...STATUS, target: { pid: 77, app: 'Notes', title: 'Notes' }, relaunch: RELAUNCH, language, systemLanguage: language },
  });

  it('offers to relaunch it, warns that unsaved work may be lost, and relaunches only once the user agrees', async () => {
    const page = await openChat(withOffer('en'));
    const offer = page.getByRole('region', { name: 'Relaunch with accessibility' });
    await offer.getByText('Notes was started without accessibility, so Deskpilot sees only its window').waitFor();
    await offer.getByRole('button', { name: 'Relaunch with accessibility' }).click();
    const question = page.getByRole('alertdialog');
    await expect(question.textContent()).resolves.toContain('Anything unsaved in Notes may be lost.');
    // Cancel (Esc) leaves the app alone.
    await page.keyboard.press('Escape');
    expect(await question.count()).toBe(0);
    expect(await calls(page, 'relaunchApp')).toEqual([]);
    await offer.getByRole('button', { name: 'Relaunch with accessibility' }).click();
    await screenshot(page, 'chat-relaunch-question');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Quit and relaunch' }).click();
    await expect.poll(async () => (await calls(page, 'relaunchApp')).length).toBe(1);
    // Main's new status has no offer: the banner goes.
    await expect.poll(() => offer.count()).toBe(0);
    expect(pageErrors(page)).toEqual([]);
  });

  it('says why a relaunch failed, in the user’s language, and offers it again', async () => {
    const { page } = await harness().open(
      options({ ...withOffer('pt-BR'), failures: { relaunchApp: 'ACTION_FAILED: Notes did not quit; nothing was started.' } }),
    );
    await page.locator('html[lang="pt-BR"]').waitFor({ state: 'attached' });
    const offer = page.getByRole('region', { name: 'Reabrir com acessibilidade' });
    await offer.getByRole('button', { name: 'Reabrir com acessibilidade' }).click();
    await expect(page.getByRole('alertdialog').textContent()).resolves.toContain('O que não estiver salvo em Notes pode se perder.');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Fechar e reabrir' }).click();
    const alert = offer.getByRole('alert');
    await alert.waitFor();
    // The code's sentence in Portuguese; the code itself stays folded in the details.
    await alert.getByText('A ação não funcionou.').waitFor();
    expect(await alert.locator('details').getAttribute('open')).toBeNull();
    await offer.getByRole('button', { name: 'Reabrir com acessibilidade' }).waitFor();
    expect(await calls(page, 'relaunchApp')).toHaveLength(1);
  });
});

/**
 * The MCP server for real: `deskpilot mcp` spawned over stdio with the SDK's own client,
 * on a private Xvfb + AT-SPI desktop with the GTK3 fixture and zenity. One desktop and one
 * server per configuration, all started at once.
 */
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type Desktop, type LaunchedApp } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const BIN = path.join(ROOT, 'bin/deskpilot.js');

interface Server {
  client: Client;
  stderr: string[];
}

async function startServer(env: NodeJS.ProcessEnv, args: string[] = []): Promise<Server> {
  const clean = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: NODE, args: [BIN, 'mcp', ...args], env: clean, cwd: ROOT, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString().split('\n').filter(Boolean)));
  const client = new Client({ name: 'deskpilot-test', version: '1' });
  await client.connect(transport);
  return { client, stderr };
}

type Result = CallToolResult & { text: string };

async function call(server: Server, name: string, args: Record<string, unknown>): Promise<Result> {
  const result = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === 'text' ? first.text : '' };
}

function idIn(text: string, pattern: string): string {
  const id = new RegExp(`\\[(\\w+)\\] ${pattern}`).exec(text)?.[1];
  if (id === undefined) throw new Error(`no ${pattern} in\n${text}`);
  return id;
}

describe.skipIf(!run)('deskpilot mcp over stdio on a real desktop', () => {
  let desktop: Desktop;
  let fixture: LaunchedApp;
  let zenity: LaunchedApp;
  let fixtureName: string;
  let main: Server;
  let safe: Server;
  let noDisplay: Server;
  let noBus: Server;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    [fixture, zenity] = await Promise.all([desktop.launchFixture(), desktop.launch('zenity', ['--entry', '--title=Greeting', '--text=Your name'])]);
    fixtureName = (await desktop.platform.apps.list()).find((app) => app.pid === fixture.pid)?.name ?? '';
    const env = desktop.session.env;
    [main, safe, noDisplay, noBus] = await Promise.all([
      startServer(env),
      startServer(env, ['--read-only', '--apps', 'ZENITY', '--max-chars', '3000']),
      startServer({ ...env, DISPLAY: ':4711' }),
      // The session's own runtime dir would be found (mcp-session.test.ts): this one points nowhere.
      startServer({ ...env, DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: path.join(desktop.session.directory, 'tmp') }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([safe, noDisplay, noBus].map((server) => server?.client.close()));
    await desktop?.stop();
  });

  it('lists the tools with schemas, and logs only to stderr', async () => {
    const { tools } = await main.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'ui_apps',
      'ui_tree',
      'ui_find',
      'ui_read',
      'ui_screenshot',
      'ui_action',
      'ui_fill_form',
      'ui_wait_for',
      'ui_close_window',
      'docs_search',
      'workflow_run',
    ]);
    // The five observe/act tools promise their structured shape; the others give text and free-form data.
    expect(tools.slice(0, 5).every((tool) => tool.outputSchema?.type === 'object')).toBe(true);
    expect(main.stderr[0]).toMatch(
      /^deskpilot mcp: serving on stdio; tools: ui_apps, ui_tree, ui_find, ui_read, ui_screenshot, ui_action, ui_fill_form, ui_wait_for, ui_close_window, docs_search, workflow_run; max 20000 characters a result$/,
    );
  });

  it('lists the running apps and reads a real app (zenity) as compact text', async () => {
    const apps = await call(main, 'ui_apps', {});
    // Either window may be frontmost, as both start at once.
    expect(apps.text).toMatch(new RegExp(`pid ${zenity.pid} "zenity"( \\(frontmost\\))?; windows: "Greeting"`));
    expect(apps.text).toContain(`pid ${fixture.pid} ${JSON.stringify(fixtureName)}`);
    const tree = await call(main, 'ui_tree', { app: 'zenity' });
    expect(tree.isError).toBeUndefined();
    expect(tree.text).toMatch(new RegExp(`^# zenity \\(pid ${zenity.pid}\\)\\n\\[\\w+\\] application "zenity"\\n  \\[\\w+\\] dialog "Greeting"`));
    expect(tree.text).toMatch(/button "OK"/);
    expect(tree.text).toMatch(/textfield/);
    expect(tree.structuredContent).toMatchObject({ pid: zenity.pid, app: 'zenity', truncated: false });
  });

  it('observe → act → verify on the fixture: click, set_value and type, each checked through ui_tree', async () => {
    const found = await call(main, 'ui_find', { pid: fixture.pid, role: 'button', name: 'Clicked 0 times' });
    const button = idIn(found.text, 'button "Clicked 0 times"');
    const clicked = await call(main, 'ui_action', { pid: fixture.pid, action: 'click', id: button });
    expect(clicked.structuredContent).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { name: 'Clicked 1 time' } });

    const field = idIn((await call(main, 'ui_find', { pid: fixture.pid, role: 'textfield', name: 'Name' })).text, 'textfield "Name"');
    const set = await call(main, 'ui_action', { pid: fixture.pid, action: 'set_value', id: field, value: 'Ada' });
    expect(set.structuredContent).toMatchObject({ success: true, method: 'accessibility', changed: true, nodeAfter: { value: 'Ada' } });
    const typed = await call(main, 'ui_action', { pid: fixture.pid, action: 'type', id: field, text: ' Lovelace' });
    expect(typed.structuredContent).toMatchObject({ success: true, method: 'accessibility', via: 'insert-text', changed: true });

    const tree = await call(main, 'ui_tree', { pid: fixture.pid });
    expect(tree.text).toMatch(/button "Clicked 1 time"/);
    expect(tree.text).toMatch(/textfield "Name" = "Ada Lovelace"/);
    const read = await call(main, 'ui_read', { pid: fixture.pid, id: field });
    expect(read.structuredContent).toMatchObject({ id: field, role: 'textfield', text: 'Name\nAda Lovelace' });
  });

  it('ui_screenshot gives the window as PNG image content, and --apps keeps it to the allowed app', async () => {
    const shot = await call(main, 'ui_screenshot', { pid: fixture.pid, ocr: false });
    expect(shot.isError).toBeUndefined();
    const image = shot.content.find((part) => part.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(
      Buffer.from((image as { data: string }).data, 'base64')
        .subarray(1, 4)
        .toString('latin1'),
    ).toBe('PNG');
    expect(shot.structuredContent).toMatchObject({ pid: fixture.pid, scale: 1, ocr: [] });
    const refused = await call(safe, 'ui_screenshot', { pid: fixture.pid, ocr: false });
    expect(refused.isError).toBe(true);
    expect(refused.content.some((part) => part.type === 'image')).toBe(false);
  });

  it('a tree cut to depth names the subtrees to ask for, and the subtree comes back by rootId', async () => {
    const top = await call(main, 'ui_tree', { pid: fixture.pid, depth: 1 });
    const cut = /… depth limit: \d+ more under (\w+)/.exec(top.text)?.[1];
    expect(cut, top.text).toBeDefined();
    expect(top.text).toMatch(/call ui_tree again with rootId/);
    const subtree = await call(main, 'ui_tree', { pid: fixture.pid, rootId: cut as string, maxTokens: 200 });
    expect(subtree.isError).toBeUndefined();
    expect(subtree.structuredContent).toMatchObject({ rootId: cut });
  });

  it('bad arguments, an unknown id and a dead pid are tool errors with codes, and the server keeps serving', async () => {
    const bad = await call(main, 'ui_action', { pid: fixture.pid, action: 'set_value', id: 'x' });
    expect(bad).toMatchObject({ isError: true, text: expect.stringMatching(/^VALIDATION: invalid ui_action: 'set_value' needs 'value'/) });
    const wrongType = await call(main, 'ui_tree', { pid: 'fixture' });
    expect(wrongType).toMatchObject({ isError: true, text: expect.stringMatching(/^VALIDATION: invalid arguments for ui_tree: 'pid'/) });

    const field = idIn((await call(main, 'ui_find', { pid: fixture.pid, role: 'checkbox', name: 'Enable feature' })).text, 'checkbox "Enable feature"');
    const unknown = await call(main, 'ui_action', { pid: fixture.pid, action: 'click', id: `${field}q` });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(new RegExp(`^click failed: NODE_NOT_FOUND: .*Closest: \\[${field}\\] checkbox "Enable feature"`));
    expect(unknown.structuredContent).toMatchObject({
      success: false,
      error: { code: 'NODE_NOT_FOUND', data: { candidates: [expect.objectContaining({ id: field })] } },
    });

    const gone = await desktop.launch('zenity', ['--info', '--title=Short-lived', '--text=bye']);
    gone.child.kill('SIGKILL');
    await new Promise((resolve) => gone.child.once('exit', resolve));
    const dead = await call(main, 'ui_tree', { pid: gone.pid });
    expect(dead).toMatchObject({ isError: true, text: expect.stringMatching(/^PROCESS_EXITED: process not running \(pid \d+\)\. .*ui_apps/) });
    expect(dead._meta?.['deskpilot/error']).toMatchObject({ code: 'PROCESS_EXITED' });

    expect((await call(main, 'ui_apps', {})).isError).toBeUndefined();
  });

  it('without a display, input actions are UI_NOT_AVAILABLE tool errors while reading still works', async () => {
    // zenity's tree is small, so this server's first read is quick.
    const field = idIn((await call(noDisplay, 'ui_find', { pid: zenity.pid, role: 'textfield' })).text, 'textfield');
    const scrolled = await call(noDisplay, 'ui_action', { pid: zenity.pid, action: 'scroll', id: field });
    expect(scrolled.isError).toBe(true);
    expect(scrolled.text).toMatch(/^scroll failed: UI_NOT_AVAILABLE: .*no X server listens on :4711/);
    expect(scrolled.structuredContent).toMatchObject({ success: false, error: { code: 'UI_NOT_AVAILABLE' } });
    expect((await call(noDisplay, 'ui_tree', { pid: zenity.pid, depth: 0 })).isError).toBeUndefined();
  });

  it.skipIf(existsSync(`/run/user/${process.getuid?.() ?? 0}/bus`))('without a session bus, every call says why, and the server keeps serving', async () => {
    for (const name of ['ui_apps', 'ui_apps']) {
      const result = await call(noBus, name, {});
      expect(result).toMatchObject({ isError: true, text: expect.stringMatching(/^UI_NOT_AVAILABLE: .*DBUS_SESSION_BUS_ADDRESS.*setup problem/) });
    }
  });

  it('--read-only leaves ui_action out; --apps lists and reads only the allowed app', async () => {
    const { tools } = await safe.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ui_apps', 'ui_tree', 'ui_find', 'ui_read', 'ui_screenshot', 'ui_wait_for', 'docs_search']);
    const refused = await call(safe, 'ui_action', { pid: fixture.pid, action: 'click', id: 'x' });
    expect(refused).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^VALIDATION: 'ui_action' is not offered: this server was started with --read-only/),
    });

    const apps = await call(safe, 'ui_apps', {});
    expect((apps.structuredContent as { apps: { pid: number }[] }).apps.map((app) => app.pid)).toEqual([zenity.pid]);
    const tree = await call(safe, 'ui_tree', { pid: zenity.pid });
    expect(tree.isError).toBeUndefined();
    expect(tree.text.length).toBeLessThanOrEqual(3000);
    expect(JSON.stringify(tree.structuredContent).length).toBeLessThanOrEqual(3000);
    const other = await call(safe, 'ui_tree', { pid: fixture.pid });
    expect(other).toMatchObject({
      isError: true,
      text: expect.stringContaining(`PERMISSION_DENIED: pid ${fixture.pid} is not a running app in this server's allow-list (--apps zenity)`),
    });
    expect(other.text).not.toContain(fixtureName);
    expect(safe.stderr.join('\n')).toMatch(/ui_tree error PERMISSION_DENIED/);

    // A pid that has exited is refused in the same words, so the refusal does not tell a client which pids exist.
    const gone = await desktop.launch('zenity', ['--info', '--title=Gone', '--text=bye']);
    gone.child.kill('SIGKILL');
    await new Promise((resolve) => gone.child.once('exit', resolve));
    const dead = await call(safe, 'ui_tree', { pid: gone.pid });
    expect(dead.text.replaceAll(String(gone.pid), '<pid>')).toBe(other.text.replaceAll(String(fixture.pid), '<pid>'));
  });

  it('closing stdin ends the server: it closes the platform, logs it and exits on its own', async () => {
    const transport = main.client.transport as StdioClientTransport;
    const pid = transport.pid as number;
    // The SDK sends SIGTERM to a server still running 2 s after stdin closes: exit code 0 with no
    // signal says the server ended on its own, which no clock on a busy machine can blur.
    const child = (transport as unknown as { _process: ChildProcess })._process;
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    await main.client.close();
    expect(await exited).toEqual([0, null]);
    expect(main.stderr.at(-1)).toBe('deskpilot mcp: closed');
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

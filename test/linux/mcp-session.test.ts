/**
 * The README's MCP config, unchanged, through the official SDK client and its default
 * environment (HOME, LOGNAME, PATH, SHELL, TERM, USER only, as Claude Desktop and Cursor start
 * servers on Linux). The server has to find the desktop session itself. The private session
 * stands in for the user's: its runtime dir (with the `bus` socket) is given as XDG_RUNTIME_DIR,
 * as a login session sets it; everything else (the bus address, DISPLAY, the AT-SPI bus) is discovered.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type Desktop, type LaunchedApp } from './desktop';
import { leaseDesktop } from './shared-desktop';
import { hasHeadlessTools } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

interface ServerEntry {
  command: string;
  args: string[];
}

/** The first `mcpServers` block in the README, with the checkout's path put in, as a user would. */
function readmeConfig(): ServerEntry {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /```json\n(\{\n {2}"mcpServers"[\s\S]*?)\n```/.exec(readme)?.[1];
  if (block === undefined) throw new Error('no mcpServers config in README.md');
  const entry = (JSON.parse(block) as { mcpServers: Record<string, ServerEntry> }).mcpServers['deskpilot'] as ServerEntry;
  return { command: entry.command, args: entry.args.map((arg) => arg.replaceAll('/path/to/deskpilot', ROOT)) };
}

async function connect(extraEnv: Record<string, string>): Promise<{ client: Client; stderr: string[] }> {
  const { command, args } = readmeConfig();
  // The SDK merges `env` over getDefaultEnvironment(); nothing of the session's variables is passed.
  const transport = new StdioClientTransport({ command, args, env: extraEnv, stderr: 'pipe' });
  const stderr: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(...chunk.toString().split('\n').filter(Boolean)));
  const client = new Client({ name: 'sdk-default-env', version: '1' });
  await client.connect(transport);
  return { client, stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const first = result.content[0];
  return { ...result, text: first?.type === 'text' ? first.text : '' };
}

describe.skipIf(!run)('the README MCP config under the SDK default environment, on a real desktop', () => {
  let desktop: Desktop;
  let zenity: LaunchedApp;
  let found: { client: Client; stderr: string[] };
  let lost: { client: Client; stderr: string[] };
  let emptyRuntime: string;

  beforeAll(async () => {
    desktop = await leaseDesktop({ openbox: true });
    zenity = await desktop.launch('zenity', ['--entry', '--title=Discovery', '--text=Your name']);
    emptyRuntime = mkdtempSync(path.join(tmpdir(), 'deskpilot-no-session-'));
    [found, lost] = await Promise.all([connect({ XDG_RUNTIME_DIR: path.join(desktop.session.directory, 'run') }), connect({ XDG_RUNTIME_DIR: emptyRuntime })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([found, lost].map((server) => server?.client.close()));
    rmSync(emptyRuntime, { recursive: true, force: true });
    await desktop?.stop();
  });

  it('the default environment really lacks the session', () => {
    const env = getDefaultEnvironment();
    expect(Object.keys(env).every((name) => ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(name))).toBe(true);
  });

  it('finds the session bus, DISPLAY and the AT-SPI bus, says how, and reads and acts on zenity', async () => {
    const apps = await call(found.client, 'ui_apps', {});
    expect(apps.isError, apps.text).toBeUndefined();
    expect(apps.text).toMatch(new RegExp(`pid ${zenity.pid} "zenity"`));
    const runBus = path.join(desktop.session.directory, 'run', 'bus');
    expect(apps.text).toContain(`found the desktop session: DBUS_SESSION_BUS_ADDRESS=unix:path=${runBus} (from the socket $XDG_RUNTIME_DIR/bus`);
    expect(apps.text).toContain(`DISPLAY=${desktop.session.display} (from the environment of org.a11y.Bus on the session bus`);
    expect(apps._meta?.['deskpilot/session']).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'DISPLAY', value: desktop.session.display })]));
    expect(found.stderr.join('\n')).toContain('found the desktop session');

    const list = await call(found.client, 'ui_find', { pid: zenity.pid, role: 'textfield' });
    const field = /\[(\w+)\] textfield/.exec(list.text)?.[1] as string;
    const typed = await call(found.client, 'ui_action', { pid: zenity.pid, action: 'type', id: field, text: 'Ada' });
    expect(typed.structuredContent, typed.text).toMatchObject({ success: true, changed: true });
    const tree = await call(found.client, 'ui_tree', { pid: zenity.pid });
    expect(tree.text).toMatch(/textfield[^\n]*= "Ada"/);
    // A capture talks to the X server itself, so it needs the discovered DISPLAY in the server's own process
    // (typing may not: it is inserted through accessibility where the field takes it).
    const shot = await call(found.client, 'ui_screenshot', { pid: zenity.pid });
    expect(shot.isError, shot.text).toBeUndefined();
  });

  it.skipIf(existsSync(`/run/user/${process.getuid?.() ?? 0}/bus`))(
    'with no session anywhere, says it is a setup problem and gives the env JSON to add',
    async () => {
      const apps = await call(lost.client, 'ui_apps', {});
      expect(apps.isError).toBe(true);
      expect(apps.text).toMatch(/^UI_NOT_AVAILABLE: no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is unset and no bus socket was found \(looked at /);
      expect(apps.text).toContain(`${emptyRuntime}/bus`);
      expect(apps.text).toMatch(/"env": \{"DISPLAY": ":\d+", "DBUS_SESSION_BUS_ADDRESS": "unix:path=\/run\/user\/\d+\/bus"\}/);
      expect(apps.text).toContain('Fix the setup as said above, then call again.');
      expect(apps.text).not.toMatch(/cannot do this|do not retry/);
      expect(apps._meta?.['deskpilot/error']).toMatchObject({ code: 'UI_NOT_AVAILABLE', data: { reason: 'no-a11y-bus', setup: true } });
    },
  );
});

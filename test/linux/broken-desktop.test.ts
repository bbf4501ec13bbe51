/**
 * The desktop broken on purpose, part by part, on private headless sessions: the X server
 * gone with the registry, a frozen registry, no session bus, no accessibility bus. Every CLI
 * command must exit by itself within 5 s with one typed line, and the MCP server must answer
 * with the same typed error and work again once the registry is back.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './desktop';
import { BIN, NODE, runCli } from './run-cli';
import { hasHeadlessTools, startSession, waitFor, type HeadlessSession } from './session';

const run = hasHeadlessTools() || process.env['CI'] !== undefined;

/**
 * How long a run may go before it counts as hung: far beyond the product's own deadlines (each
 * D-Bus call has 2 s), so a loaded machine never turns a slow answer into a failure.
 */
const HANG_GUARD_MS = 20_000;
/** `deskpilot: UI_NOT_AVAILABLE: <what>; <fix>` and nothing else. */
const TYPED_LINE = /^deskpilot: UI_NOT_AVAILABLE: [^\n;]+; [^\n]+\n$/;

/** The session's own process by its command name (/proc/PID/comm is cut to 15 characters). */
function findSessionProcess(session: HeadlessSession, comm: string, cmdline?: string): number | undefined {
  return session.processIds().find((each) => {
    try {
      const named = readFileSync(`/proc/${each}/comm`, 'utf8').trim() === comm;
      return named && (cmdline === undefined || readFileSync(`/proc/${each}/cmdline`, 'utf8').includes(cmdline));
    } catch {
      return false;
    }
  });
}

function sessionProcess(session: HeadlessSession, comm: string, cmdline?: string): number {
  const pid = findSessionProcess(session, comm, cmdline);
  if (pid === undefined) throw new Error(`no ${comm} in the session`);
  return pid;
}

/** The registry is D-Bus activated: on a loaded machine it may show in /proc a moment after the session is up. */
const registryPid = (session: HeadlessSession): Promise<number> =>
  waitFor(() => findSessionProcess(session, 'at-spi2-registr'), 5000, 'at-spi2-registryd in the session');
const xServerPid = (session: HeadlessSession): number => Number(readFileSync(`/tmp/.X${session.display.slice(1)}-lock`, 'utf8').trim());

async function gone(pid: number): Promise<void> {
  await waitFor(
    () => (readdirSync('/proc').includes(String(pid)) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ') ? undefined : true),
    5000,
    `pid ${pid} to end`,
  );
}

interface Mcp {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<{ result: CallToolResult; text: string }>;
}

async function startMcp(env: NodeJS.ProcessEnv): Promise<Mcp> {
  const clean = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({ command: NODE, args: [BIN, 'mcp'], env: clean, cwd: ROOT, stderr: 'pipe' });
  const client = new Client({ name: 'deskpilot-test', version: '1' });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) => {
      // 10 s is a hang guard, not a figure: a typed answer at all means the server's own deadlines cut the broken call.
      const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 10_000 })) as CallToolResult;
      const first = result.content[0];
      return { result, text: first?.type === 'text' ? first.text : '' };
    },
  };
}

describe.skipIf(!run)('a broken Linux desktop', () => {
  let healthy: HeadlessSession;
  let noX: HeadlessSession;

  beforeAll(async () => {
    [healthy, noX] = await Promise.all([startSession(), startSession()]);
    // The way it broke for a new user: the X server failed, so the registry died at once. Both are
    // found first: the registry leaves by itself when its display goes, sometimes before it is looked for.
    const [display, registry] = [xServerPid(noX), await registryPid(noX)];
    process.kill(display, 'SIGKILL');
    try {
      process.kill(registry, 'SIGKILL');
    } catch {
      // Already gone with its display.
    }
    await gone(display).catch(() => undefined);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([healthy?.stop(), noX?.stop()]);
  });

  it('without its X server, every command exits by itself with one typed line naming the display', { timeout: 60_000 }, async () => {
    const commands = [['apps'], ['tree', '--pid', String(process.pid)], ['find', '--name', 'OK']];
    // All at once: nothing here is timed. The deadline is a hang guard, far beyond what three starts
    // on two busy cores take; the typed line is the proof the command's own checks answered.
    for (const result of await Promise.all(commands.map((args) => runCli(args, noX.env, HANG_GUARD_MS)))) {
      expect(result.lingered, result.stderr).toBe(false);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(TYPED_LINE);
      expect(result.stderr).toContain('no X display');
      expect(result.stderr).toContain('at-spi2-registryd');
    }
  });

  it('without a session bus, or with one that is not there, the reason is no-a11y-bus and the process ends', async () => {
    // XDG_RUNTIME_DIR moved too: otherwise the session's bus socket there is found (session-discovery.ts).
    const unset = { ...healthy.env, DBUS_SESSION_BUS_ADDRESS: undefined, XDG_RUNTIME_DIR: path.join(healthy.directory, 'tmp') };
    const missing = { ...healthy.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(healthy.directory, 'no-such-bus')}` };
    for (const result of await Promise.all([unset, missing].map((env) => runCli(['apps'], env, HANG_GUARD_MS)))) {
      expect(result.lingered).toBe(false);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(TYPED_LINE);
      expect(result.stderr).toContain('D-Bus session bus');
    }
  });

  it('the MCP server gives the typed reason while the registry is frozen, and works again once it answers', async () => {
    const mcp = await startMcp(healthy.env);
    try {
      expect((await mcp.call('ui_apps')).result.isError).toBeUndefined();
      const registry = await registryPid(healthy);
      process.kill(registry, 'SIGSTOP');
      try {
        // The CLI asks at the same time (each waits out its own deadline on the frozen registry), says the same, and exits.
        const [frozen, cli] = await Promise.all([mcp.call('ui_apps'), runCli(['apps'], healthy.env, HANG_GUARD_MS)]);
        expect(frozen.result.isError).toBe(true);
        expect(frozen.text).toMatch(/^UI_NOT_AVAILABLE: the AT-SPI registry/);
        expect(frozen.result._meta?.['deskpilot/error']).toMatchObject({ code: 'UI_NOT_AVAILABLE', data: { reason: 'registry-gone' } });
        expect(cli.lingered).toBe(false);
        expect(cli.code).toBe(2);
        expect(cli.stderr).toMatch(TYPED_LINE);
      } finally {
        process.kill(registry, 'SIGCONT');
      }
      const back = await mcp.call('ui_apps');
      expect(back.result.isError, back.text).toBeUndefined();
      // A registry killed outright is started again by D-Bus on the next call; the server follows it.
      process.kill(registry, 'SIGKILL');
      await gone(registry);
      // The bus may not have seen the old registry go for a moment; meanwhile a call is the typed error, never a hang.
      const restarted = await waitFor(
        async () => {
          const call = await mcp.call('ui_apps');
          if (call.result.isError === true) expect(call.text).toMatch(/^UI_NOT_AVAILABLE: /);
          return call.result.isError === true ? undefined : call;
        },
        5000,
        'ui_apps to work again after the registry was killed',
      );
      expect(restarted.result.isError, restarted.text).toBeUndefined();
      expect(await registryPid(healthy)).not.toBe(registry);
    } finally {
      await mcp.client.close();
    }
  }, 30_000);

  it('the MCP server connects to a new accessibility bus when the old one dies', async () => {
    const mcp = await startMcp(healthy.env);
    try {
      expect((await mcp.call('ui_apps')).result.isError).toBeUndefined();
      const bus = sessionProcess(healthy, 'dbus-daemon', 'at-spi2');
      const launcher = sessionProcess(healthy, 'at-spi-bus-laun');
      process.kill(launcher, 'SIGKILL');
      process.kill(bus, 'SIGKILL');
      await gone(bus);
      // The call right after either connects to a new bus at once or says why it cannot: never INTERNAL, never a hang.
      const lost = await mcp.call('ui_apps');
      if (lost.result.isError === true) expect(lost.result._meta?.['deskpilot/error']).toMatchObject({ code: 'UI_NOT_AVAILABLE' });
      // The session bus starts a new launcher (and bus, and registry) on the next GetAddress.
      const again = await waitFor(
        async () => {
          const answer = await mcp.call('ui_apps');
          return answer.result.isError === true ? undefined : answer;
        },
        10_000,
        'ui_apps to work on the new accessibility bus',
      );
      expect(again.text).toBeDefined();
    } finally {
      await mcp.client.close();
    }
  }, 30_000);
});

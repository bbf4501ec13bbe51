/**
 * npm run bench:soak — one `deskpilot mcp` server, as a client keeps it for a day: 2,000
 * ui_tree calls and 500 actions (the fixture's check box and slider, in turn) on a real GTK
 * app in a private headless session. It reports the server's RSS at the start, every 500 calls
 * and at the end, the median latency of the first and last 50 calls, and every error. Targets:
 * RSS at the end within 1.5× the figure at call 500, and no error (the exit code says whether
 * both held). Not part of npm test: it takes a minute or two.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, startDesktop } from '../test/linux/desktop';
import { median } from './stats';

const TREE_CALLS = 2_000;
const ACTIONS = 500;
const CALLS = TREE_CALLS + ACTIONS;
/** One action after every four tree reads: 2,000 and 500 over 2,500 calls. */
const ACTION_EVERY = CALLS / ACTIONS;
const REPORT_EVERY = 500;
const WINDOW = 50;
const MAX_GROWTH = 1.5;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

function idIn(result: CallToolResult, role: string, name: string): string {
  const matches = (result.structuredContent as { matches?: { id: string; role: string; name: string }[] } | undefined)?.matches ?? [];
  const found = matches.find((match) => match.role === role && match.name === name);
  if (found === undefined) throw new Error(`no ${role} "${name}" in the fixture`);
  return found.id;
}

async function main(): Promise<number> {
  const desktop = await startDesktop({ openbox: true });
  let client: Client | undefined;
  try {
    const { pid } = await desktop.launchFixture();
    const env = Object.fromEntries(Object.entries(desktop.session.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({
      command: path.join(ROOT, 'node_modules/.bin/node'),
      args: [path.join(ROOT, 'bin/deskpilot.js'), 'mcp'],
      env,
      cwd: ROOT,
      stderr: 'ignore',
    });
    client = new Client({ name: 'bench-soak', version: '1' });
    await client.connect(transport);
    const server = transport.pid;
    if (server === null) throw new Error('the MCP server did not start');
    const rssStart = rssMb(server);
    console.log(
      `server pid ${server}, RSS at the start ${rssStart.toFixed(1)} MB; ${TREE_CALLS} ui_tree calls and ${ACTIONS} actions on the fixture (pid ${pid})`,
    );

    const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
      (await client?.callTool({ name, arguments: args }, undefined, { timeout: 30_000 })) as CallToolResult;
    const toggle = idIn(await call('ui_find', { pid, role: 'checkbox', name: 'Enable feature' }), 'checkbox', 'Enable feature');
    const slider = idIn(await call('ui_find', { pid, role: 'slider', name: 'Volume' }), 'slider', 'Volume');

    const latencies: number[] = [];
    const errors: string[] = [];
    const samples: { call: number; mb: number }[] = [];
    let rssMax = rssStart;
    let actions = 0;
    for (let index = 1; index <= CALLS; index += 1) {
      const acting = index % ACTION_EVERY === 0;
      const [name, args] = acting
        ? ([
            'ui_action',
            (actions += 1) % 2 === 0 ? { pid, action: 'click', id: toggle } : { pid, action: 'set_value', id: slider, value: actions % 4 === 1 ? 30 : 70 },
          ] as const)
        : (['ui_tree', { pid }] as const);
      const started = performance.now();
      try {
        const result = await call(name, args);
        if (result.isError === true) {
          const first = result.content[0];
          errors.push(`call ${index} ${name}: ${first?.type === 'text' ? first.text.split('\n')[0] : 'error'}`);
        }
      } catch (error) {
        errors.push(`call ${index} ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      latencies.push(performance.now() - started);
      if (index % WINDOW === 0) rssMax = Math.max(rssMax, rssMb(server));
      if (index % REPORT_EVERY === 0) {
        const mb = rssMb(server);
        rssMax = Math.max(rssMax, mb);
        samples.push({ call: index, mb });
        console.log(
          `call ${index}: RSS ${mb.toFixed(1)} MB, median of the last ${WINDOW} calls ${median(latencies.slice(-WINDOW)).toFixed(1)} ms, errors so far ${errors.length}`,
        );
      }
    }
    const kinds = (acting: boolean) => latencies.filter((_ms, position) => ((position + 1) % ACTION_EVERY === 0) === acting);
    console.log(`median ui_tree ${median(kinds(false)).toFixed(1)} ms, median action ${median(kinds(true)).toFixed(1)} ms (settle included)`);
    const rssEnd = rssMb(server);
    rssMax = Math.max(rssMax, rssEnd);
    for (const error of errors.slice(0, 10)) console.log(`error: ${error}`);
    if (errors.length > 10) console.log(`… and ${errors.length - 10} more errors`);
    const at500 = samples[0]?.mb ?? rssEnd;
    const held = rssEnd <= at500 * MAX_GROWTH && errors.length === 0;
    console.log(
      `targets: RSS at the end ${rssEnd.toFixed(1)} MB ≤ ${MAX_GROWTH}× call ${REPORT_EVERY}'s ${at500.toFixed(1)} MB: ${rssEnd <= at500 * MAX_GROWTH ? 'yes' : 'NO'}; no errors: ${errors.length === 0 ? 'yes' : 'NO'}`,
    );
    console.log(
      `soak: calls=${CALLS} rss_start_mb=${rssStart.toFixed(1)} rss_end_mb=${rssEnd.toFixed(1)} rss_max_mb=${rssMax.toFixed(1)} p50_first_ms=${median(latencies.slice(0, WINDOW)).toFixed(1)} p50_last_ms=${median(latencies.slice(-WINDOW)).toFixed(1)} errors=${errors.length}`,
    );
    return held ? 0 : 1;
  } finally {
    await client?.close();
    await desktop.stop();
  }
}

process.exitCode = await main();

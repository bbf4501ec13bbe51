/**
 * npm run bench:startup — cold start of the headless entry points: `deskpilot apps` on the fake
 * platform, and an MCP client's initialize + tools/list round trip, each from a new process.
 * The built JavaScript (out/cli, made by `npm install`) and the tsx path (the TypeScript
 * compiled at run time) alternate in the same run, so a busy machine slows both alike. A bare
 * `node -e 0` runs in the same rounds as the reference: the CLI's own start-up is its ratio to it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, ms } from './stats';

const RUNS = 9;
const root = fileURLToPath(new URL('..', import.meta.url));
const node = path.join(root, 'node_modules/.bin/node');
const bin = path.join(root, 'bin/deskpilot.js');
const run = promisify(execFile);

type Path = 'built' | 'tsx';

function env(which: Path): Record<string, string> {
  const base = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const { DESKPILOT_FROM_SOURCE: _unused, ...rest } = base;
  return { ...rest, DESKPILOT_PLATFORM: 'fake', ...(which === 'tsx' ? { DESKPILOT_FROM_SOURCE: '1' } : {}) };
}

async function cli(which: Path): Promise<number> {
  const started = performance.now();
  await run(node, [bin, 'apps'], { env: env(which), cwd: root });
  return performance.now() - started;
}

/** The floor every start pays: Node itself, no module of ours. */
async function bareNode(): Promise<number> {
  const started = performance.now();
  await run(node, ['-e', '0'], { cwd: root });
  return performance.now() - started;
}

async function mcpReady(which: Path): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: node, args: [bin, 'mcp'], env: env(which), cwd: root, stderr: 'ignore' }));
  await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

async function main(): Promise<void> {
  await run('npm', ['run', '-s', 'build:cli'], { cwd: root });
  const times: Record<`${'cli' | 'mcp'}_${Path}`, number[]> = { cli_built: [], cli_tsx: [], mcp_built: [], mcp_tsx: [] };
  const bare: number[] = [];
  // One of each first, not counted: the file cache and tsx's compile cache are warm for both then.
  for (const which of ['built', 'tsx'] as const) {
    await cli(which);
    await mcpReady(which);
  }
  for (let index = 0; index < RUNS; index += 1) {
    bare.push(await bareNode());
    for (const which of ['built', 'tsx'] as const) {
      times[`cli_${which}`].push(await cli(which));
      times[`mcp_${which}`].push(await mcpReady(which));
    }
  }
  const row = (name: string, built: number[], tsx: number[]): number => {
    const ratio = median(tsx) / median(built);
    console.log(`${name.padEnd(28)} built=${ms(median(built))} ms  tsx=${ms(median(tsx))} ms  speedup=${ratio.toFixed(1)}x  (${RUNS} runs, medians)`);
    return ratio;
  };
  const cliSpeedup = row('deskpilot apps (fake)', times.cli_built, times.cli_tsx);
  const mcpSpeedup = row('mcp initialize + tools/list', times.mcp_built, times.mcp_tsx);
  const floor = median(bare);
  console.log(
    `node -e 0 (reference)        ${ms(floor)} ms  deskpilot apps = ${(median(times.cli_built) / floor).toFixed(1)}x it, mcp ready = ${(median(times.mcp_built) / floor).toFixed(1)}x it`,
  );
  console.log(
    `startup: cli_ms=${ms(median(times.cli_built))} mcp_ready_ms=${ms(median(times.mcp_built))} speedup=${Math.min(cliSpeedup, mcpSpeedup).toFixed(1)}`,
  );
}

await main();

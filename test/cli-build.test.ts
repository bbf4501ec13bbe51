/** The CLI built ahead of time (scripts/build-cli.mjs, run by npm install) runs without tsx. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
// Under out/, like the real build, so Node finds node_modules and package.json from it.
const folder = `cli-test-${process.pid}`;
const built = path.join(root, 'out', folder, 'main.js');
const node = path.join(root, 'node_modules/.bin/node');
const run = promisify(execFile);

/** Runs the built CLI's main() in a plain Node process with no TypeScript loader. */
const runner = (args: string[]): string =>
  `const { main } = await import(${JSON.stringify(built)}); process.exitCode = await main(${JSON.stringify(args)}, { stdout: (t) => process.stdout.write(t + '\\n'), stderr: (t) => process.stderr.write(t + '\\n'), env: process.env });`;

beforeAll(async () => {
  await run(node, [path.join(root, 'scripts/build-cli.mjs'), folder], { cwd: root });
}, 60_000);

afterAll(() => rmSync(path.join(root, 'out', folder), { recursive: true, force: true }));

describe('the built CLI', () => {
  it('runs apps on the fake platform and knows its version', async () => {
    const env = { ...process.env, DESKPILOT_PLATFORM: 'fake' };
    const apps = await run(node, ['--input-type=module', '-e', runner(['apps'])], { env, cwd: root });
    expect(apps.stdout).toMatch(/^PID\s+NAME\s+WINDOWS\n4242\s+Deskpilot Fixture/);
    const version = await run(node, ['--input-type=module', '-e', runner(['--version'])], { env, cwd: root });
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('indexes documents through its docs parse worker, without tsx', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-cli-build-docs-'));
    try {
      mkdirSync(path.join(dir, 'notes'));
      writeFileSync(path.join(dir, 'notes/printer.md'), '# Printer\n\n## Paper jam\nOpen the back cover.\n');
      const env = { ...process.env, DESKPILOT_DATA_DIR: path.join(dir, 'data') };
      const search = await run(node, ['--input-type=module', '-e', runner(['docs', 'search', '--folder', path.join(dir, 'notes'), 'paper jam'])], {
        env,
        cwd: root,
      });
      expect(search.stdout).toContain('Printer › Paper jam');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers an MCP initialize and tools/list', async () => {
    const env = Object.fromEntries(
      Object.entries({ ...process.env, DESKPILOT_PLATFORM: 'fake' }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: node, args: ['--input-type=module', '-e', runner(['mcp'])], env, cwd: root, stderr: 'ignore' }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('ui_tree');
    await client.close();
  });
});

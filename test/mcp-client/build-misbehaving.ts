/**
 * misbehaving-server.ts compiled to plain JavaScript once per test file, so each start of the
 * server is a plain `node` start: through tsx every start compiled it again, about 0.5 to 1 s
 * on a busy 2-core machine, and a test file starts it up to five times (each crash restarts it).
 * The output goes under out/ so Node finds the MCP SDK and zod in node_modules, which stay
 * external.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface BuiltServer {
  /** How a settings file or a toolbox starts it: `node <file>`. */
  command: string;
  args: string[];
  remove(): void;
}

export async function buildMisbehavingServer(): Promise<BuiltServer> {
  mkdirSync(path.join(root, 'out'), { recursive: true });
  const outdir = mkdtempSync(path.join(root, 'out', 'test-mcp-server-'));
  await build({
    absWorkingDir: root,
    entryPoints: { 'misbehaving-server': 'test/mcp-client/misbehaving-server.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    packages: 'external',
    logLevel: 'warning',
  });
  return {
    command: process.execPath,
    args: [path.join(outdir, 'misbehaving-server.mjs')],
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

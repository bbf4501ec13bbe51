// Builds the CLI and the MCP server (src/cli/main.ts) to plain JavaScript in out/cli, so
// `deskpilot` starts without compiling TypeScript at run time. Run by `npm install` (prepare)
// and `npm run build:cli`. npm packages stay external: Node loads them from node_modules.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Another folder under out/ may be given (the build test does), so a running CLI's files are never replaced under it.
const outdir = `${root}out/${process.argv[2] ?? 'cli'}`;

rmSync(outdir, { recursive: true, force: true });
await build({
  // The docs parse worker is an entry of its own: a worker thread loads it by file (src/core/doc-search/parse/reader.ts).
  entryPoints: { main: `${root}src/cli/main.ts`, 'docs-parse-worker': `${root}src/core/doc-search/parse/parse-worker.ts` },
  outdir,
  bundle: true,
  // Commands load what only they need (the model provider for ask, the MCP SDK for mcp) as chunks of their own.
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});

/**
 * The automation host bundled once per test file, as electron-vite bundles it for the app
 * (out/main/host.js beside docs-parse-worker.js), so each fork loads plain JavaScript instead
 * of compiling the host's TypeScript through tsx again: a test file forks a dozen hosts.
 * The bundle goes under out/ so Node finds the npm packages in node_modules, which stay external.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

export interface BuiltHost {
  /** The host's entry, to fork. */
  entry: string;
  remove(): void;
}

export async function buildHost(): Promise<BuiltHost> {
  mkdirSync(path.join(root, 'out'), { recursive: true });
  const outdir = mkdtempSync(path.join(root, 'out', 'test-host-'));
  await build({
    absWorkingDir: root,
    // The docs parse worker is an entry of its own: a worker thread loads it by file (src/core/doc-search/parse/reader.ts).
    entryPoints: { host: 'src/host/main.ts', 'docs-parse-worker': 'src/core/doc-search/parse/parse-worker.ts' },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // The Node that forks it.
    target: `node${process.versions.node}`,
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return { entry: path.join(outdir, 'host.js'), remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * The built renderer runs under a strict CSP with no inline script. The dev server needs
 * React's inline refresh preamble and a websocket, so only `serve` loosens it.
 */
function devCsp(): Plugin {
  return {
    name: 'deskpilot-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws: http://localhost:*"),
  };
}

export default defineConfig({
  main: {
    // `host` is the automation host main starts as a utilityProcess (out/main/host.js); the docs
    // parse worker is a worker thread the host loads by file (src/core/doc-search/parse/reader.ts).
    build: {
      rollupOptions: { input: { index: 'src/main/index.ts', host: 'src/host/main.ts', 'docs-parse-worker': 'src/core/doc-search/parse/parse-worker.ts' } },
    },
  },
  preload: {
    // A sandboxed preload cannot be an ES module.
    build: { rollupOptions: { input: { index: 'src/preload/index.ts' }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer: {
    root: 'src/renderer',
    build: { rollupOptions: { input: { index: 'src/renderer/index.html' } } },
    plugins: [react(), devCsp()],
  },
});

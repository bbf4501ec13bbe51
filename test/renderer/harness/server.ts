import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/**
 * Serves a built renderer on 127.0.0.1; the page's CSP ('self') then means this origin. `extra`
 * maps further paths to files outside the build, the test tools a page loads as scripts of its
 * own origin (axe-core): cached like the bundle, a reload then reuses their compiled code too.
 */
export async function serveStatic(root: string, extra: Readonly<Record<string, string>> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    // The page has no icon; answering keeps the browser's automatic favicon request out of the console errors.
    if (pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const mapped = Object.hasOwn(extra, pathname) ? extra[pathname] : undefined;
    const file = mapped ?? path.join(root, pathname === '/' ? 'index.html' : pathname);
    if ((mapped === undefined && !file.startsWith(root)) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    // The folder is a finished build named by its sources' hash: nothing served changes while this
    // server lives (a new port each time). Cached, a reload reuses the bundle and V8's compiled
    // code instead of fetching and compiling 600 KB again: about half the cost of each test's load.
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=31536000, immutable' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

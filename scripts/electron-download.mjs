// @ts-check
// What `npm start` says when Electron's binary cannot be downloaded: one paragraph with what
// it was fetching and from where, why (as far as a second look can tell), the variables that
// change the source or go through a proxy, and that the CLI and MCP server need no Electron.

const DEFAULT_MIRROR = 'https://github.com/electron/electron/releases/download/';

/**
 * The URL @electron/get fetches, read from the same variables it reads (ELECTRON_MIRROR and the
 * npm config forms of it, ELECTRON_CUSTOM_DIR).
 * @param {{ version: string, platform: string, arch: string, env: Record<string, string | undefined> }} target
 */
export function electronUrl({ version, platform, arch, env }) {
  const pick = (/** @type {string} */ name) =>
    env[`npm_config_electron_${name}`] ||
    env[`NPM_CONFIG_ELECTRON_${name.toUpperCase()}`] ||
    env[`npm_package_config_electron_${name}`] ||
    env[`ELECTRON_${name.toUpperCase()}`];
  const mirror = pick('mirror') || DEFAULT_MIRROR;
  const folder = (pick('custom_dir') || `v${version}`).replace('{{ version }}', version);
  return `${mirror.endsWith('/') ? mirror : `${mirror}/`}${folder}/electron-v${version}-${platform}-${arch}.zip`;
}

/**
 * Why a URL cannot be fetched, in a few words, from the error of a request to it.
 * @param {unknown} error
 */
export function fetchProblem(error) {
  /** @type {unknown} */
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = /** @type {{ code?: unknown }} */ (current).code;
    const text = `${typeof code === 'string' ? code : ''} ${current.message}`;
    if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'the name could not be looked up (offline, or DNS blocked)';
    if (/ECONNREFUSED/.test(text)) return 'the connection was refused';
    if (/ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|TimeoutError|aborted due to timeout/i.test(text)) return 'the connection timed out (a firewall, or a proxy needed)';
    if (/ECONNRESET|UND_ERR_SOCKET/.test(text)) return 'the connection was cut (a firewall or proxy in the way)';
    if (/CERT|SSL|TLS|self.signed/i.test(text)) return "the server's certificate was not accepted (a proxy that inspects HTTPS?)";
    current = current.cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The paragraph, on one line: the terminal wraps it at the user's width.
 * @param {{ version: string, url: string, why: string }} failure
 */
export function explainDownloadFailure({ version, url, why }) {
  return [
    `deskpilot: npm start could not download Electron ${version}, the runtime of the app's window, from ${url}: ${why}.`,
    'Offline, behind a proxy or a firewall: set HTTPS_PROXY (and NO_PROXY) together with ELECTRON_GET_USE_PROXY=true to go through a proxy,',
    'or ELECTRON_MIRROR to a mirror you can reach (such as https://npmmirror.com/mirrors/electron/), then run npm start again;',
    'a zip fetched elsewhere can go in the Electron cache (electron_config_cache, by default ~/.cache/electron).',
    'The command-line tool and the MCP server work without Electron: npm run deskpilot -- apps, npm run deskpilot -- doctor, npm run deskpilot -- mcp.',
  ].join(' ');
}

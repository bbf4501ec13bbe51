// @ts-check
/**
 * Enforces the layer arrows: renderer, preload → shared; cli, mcp, host → core, shared;
 * main → shared and the core's provider settings (core/provider-config); core → shared, and
 * native from core/platform only. Program folders never import each other.
 * Inside the core, floors: a folder imports only from floors below its own (see FLOORS).
 * Relative imports are resolved to files, so `../../native/x` is caught however it is spelt.
 */
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Layers, most specific prefix first. `provider-config` is the pure part of the provider that
 * main needs for its settings screen (presets, config resolution, header lists), so main never
 * reaches the rest of the core.
 * @type {Array<[string, string]>}
 */
const LAYERS = [
  ['src/shared/', 'shared'],
  ['src/renderer/', 'renderer'],
  ['src/preload/', 'preload'],
  ['src/core/platform/', 'platform'],
  ['src/core/workflows/', 'workflows'],
  ['src/core/provider-config/', 'provider-config'],
  ['src/core/', 'core'],
  ['src/host/', 'host'],
  ['src/cli/', 'cli'],
  ['src/mcp/', 'mcp'],
  ['src/main/', 'main'],
  ['native/', 'native'],
];

const ENGINE = ['core', 'platform', 'provider-config', 'shared'];
/** Workflows stand on the engine (actions, tools, the safety gate); the rest of the core never reaches up into them. */
const WITH_WORKFLOWS = [...ENGINE, 'workflows'];

/** @type {Record<string, {layers: string[], electron: boolean, node: boolean, why: string}>} */
const RULES = {
  shared: { layers: ['shared'], electron: false, node: false, why: 'src/shared is pure TypeScript used by every layer' },
  renderer: {
    layers: ['renderer', 'shared'],
    electron: false,
    node: false,
    why: 'the renderer is a sandboxed web page that talks only through window.deskpilot',
  },
  preload: { layers: ['preload', 'shared'], electron: true, node: false, why: 'the sandboxed preload exposes the typed contract and nothing else' },
  main: {
    layers: ['main', 'provider-config', 'shared'],
    electron: true,
    node: true,
    why: 'main is Electron wiring; the engine runs in the automation host, and main needs only the provider settings',
  },
  'provider-config': {
    layers: ['provider-config', 'shared'],
    electron: false,
    node: true,
    why: 'the provider settings are shared with main, so they depend on nothing else in the core',
  },
  core: { layers: ENGINE, electron: false, node: true, why: 'the core runs in plain Node under every program; only core/platform touches native/' },
  platform: { layers: [...ENGINE, 'native'], electron: false, node: true, why: 'the core runs in plain Node under every program' },
  workflows: {
    layers: WITH_WORKFLOWS,
    electron: false,
    node: true,
    why: 'workflows are built on the engine, and only the programs (cli, mcp, host) run them; the engine below never imports them',
  },
  host: {
    layers: ['host', ...WITH_WORKFLOWS],
    electron: false,
    node: true,
    why: 'the automation host is a program over the core; it reaches main through its port, not by import',
  },
  // `deskpilot mcp` is a CLI command, so the CLI may start the MCP server; never the reverse.
  cli: { layers: ['cli', 'mcp', ...WITH_WORKFLOWS], electron: false, node: true, why: 'the CLI is a program over the core' },
  mcp: { layers: ['mcp', ...WITH_WORKFLOWS], electron: false, node: true, why: 'the MCP server is a program over the core' },
  native: { layers: ['native'], electron: false, node: true, why: 'native/ holds OS declarations only, no logic' },
  other: {
    layers: ['shared', 'renderer', 'preload', 'main', 'host', 'cli', 'mcp', ...WITH_WORKFLOWS, 'other'],
    electron: true,
    node: true,
    why: 'only src/core/platform may import native/',
  },
};

/** @param {string} file */
export function layerOf(file) {
  const relative = path.relative(ROOT, file).split(path.sep).join('/');
  return LAYERS.find(([prefix]) => relative.startsWith(prefix))?.[1] ?? 'other';
}

/**
 * Floors inside the core, lowest first: a folder imports only from floors below its own, never
 * from its own floor's other folders nor from above. `(root)` is the core's loose files (clock,
 * data dir). A new folder must be given a floor here before it can import anything.
 */
const FLOORS = [
  ['(root)'],
  ['ui', 'image', 'provider-config'],
  ['platform'],
  ['screen-text', 'actions', 'doc-search'],
  ['tools'],
  ['agent', 'mcp-client'],
  ['doctor'],
  ['runtime', 'workflows'],
];
const FLOOR_TEXT = FLOORS.map((floor) => floor.join(', ')).join(' < ');

/** The core folder a file is in, `(root)` for the core's own files; undefined outside src/core. @param {string} file */
export function coreFolderOf(file) {
  const parts = path.relative(ROOT, file).split(path.sep);
  const name = parts[2];
  if (parts[0] !== 'src' || parts[1] !== 'core' || name === undefined) return undefined;
  if (parts.length > 3) return name;
  // `../screen-text` names the folder (its index); `../clock` and `../clock.ts` name a file of the core's own.
  return /\.[cm]?[jt]sx?$/.test(name) || existsSync(`${file}.ts`) ? '(root)' : name;
}

/** @param {string} folder */
const floorOf = (folder) => FLOORS.findIndex((floor) => floor.includes(folder));

// A test assembles its subject from whatever it needs (a fake platform under a ui test), so the floors bind the code it tests, not the test.
const TEST_FILE = /\.test\.tsx?$/;

/** The floor rule, for an import from one core folder to another. @param {string} target @param {string} importer */
function floorProblem(target, importer) {
  const from = coreFolderOf(importer);
  const to = coreFolderOf(target);
  if (from === undefined || to === undefined || from === to || TEST_FILE.test(importer)) return undefined;
  const [fromFloor, toFloor] = [floorOf(from), floorOf(to)];
  if (fromFloor === -1) return `core/${from} has no floor: give it one in FLOORS (eslint/layers.js) before it imports from core/${to}.`;
  if (toFloor !== -1 && toFloor < fromFloor) return undefined;
  return `core/${from} may not import from core/${to}: inside the core, a folder imports only from floors below its own (${FLOOR_TEXT}).`;
}

const NODE_BUILTINS = new Set(builtinModules);

/** @param {string} specifier @param {string} importer */
function problem(specifier, importer) {
  const layer = layerOf(importer);
  const rule = RULES[layer] ?? RULES['other'];
  if (rule === undefined) return undefined;
  if (specifier === 'electron' || specifier.startsWith('electron/')) {
    return rule.electron ? undefined : `${layer} may not import 'electron': ${rule.why}.`;
  }
  if (specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0] ?? '')) {
    return rule.node ? undefined : `${layer} may not import Node built-in '${specifier}': ${rule.why}.`;
  }
  if (!specifier.startsWith('.')) return undefined;
  const resolved = path.resolve(path.dirname(importer), specifier);
  const target = layerOf(resolved);
  if (!rule.layers.includes(target)) return `${layer} may not import from ${target} ('${specifier}'): ${rule.why}.`;
  return floorProblem(resolved, importer);
}

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: { type: 'problem', docs: { description: 'Imports follow the layer arrows of docs/architecture.md' }, schema: [] },
  create(context) {
    /** @param {any} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const message = problem(source, context.filename);
      if (message !== undefined) context.report({ node, message });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => check(node, node.source?.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
      CallExpression: (node) => {
        const [argument] = node.arguments;
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && argument?.type === 'Literal') {
          check(node, argument.value);
        }
      },
    };
  },
};

export default { rules: { layers: layersRule } };

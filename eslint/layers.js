// @ts-check
/**
 * Enforces the layer arrows of DESIGN.md: renderer → shared; preload → shared;
 * main → shared, core; core → shared, native (native only from core/platform).
 * Relative imports are resolved to files, so `../../native/x` is caught however it is spelt.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Layers, most specific prefix first. @type {Array<[string, string]>} */
const LAYERS = [
  ['src/shared/', 'shared'],
  ['src/renderer/', 'renderer'],
  ['src/preload/', 'preload'],
  ['src/main/core/platform/', 'platform'],
  ['src/main/core/', 'core'],
  ['src/main/', 'main'],
  ['native/', 'native'],
];

/** @type {Record<string, {layers: string[], electron: boolean, node: boolean, why: string}>} */
const RULES = {
  shared: { layers: ['shared'], electron: false, node: false, why: 'src/shared is pure TypeScript used by every layer' },
  renderer: { layers: ['renderer', 'shared'], electron: false, node: false, why: 'the renderer is a sandboxed web page that talks only through window.deskpilot' },
  preload: { layers: ['preload', 'shared'], electron: true, node: false, why: 'the sandboxed preload exposes the typed contract and nothing else' },
  main: { layers: ['main', 'core', 'platform', 'shared'], electron: true, node: true, why: 'main is wiring; it reaches the OS through the core' },
  core: { layers: ['core', 'platform', 'shared'], electron: false, node: true, why: 'the core runs in plain Node (CLI, MCP server, tests); only core/platform touches native/' },
  platform: { layers: ['core', 'platform', 'shared', 'native'], electron: false, node: true, why: 'the core runs in plain Node (CLI, MCP server, tests)' },
  native: { layers: ['native'], electron: false, node: true, why: 'native/ holds OS declarations only, no logic' },
  other: { layers: ['shared', 'renderer', 'preload', 'main', 'core', 'platform', 'other'], electron: true, node: true, why: 'only src/main/core/platform may import native/' },
};

/** @param {string} file */
export function layerOf(file) {
  const relative = path.relative(ROOT, file).split(path.sep).join('/');
  return LAYERS.find(([prefix]) => relative.startsWith(prefix))?.[1] ?? 'other';
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
  const target = layerOf(path.resolve(path.dirname(importer), specifier));
  return rule.layers.includes(target) ? undefined : `${layer} may not import from ${target} ('${specifier}'): ${rule.why}.`;
}

/** @type {import('eslint').Rule.RuleModule} */
const layersRule = {
  meta: { type: 'problem', docs: { description: 'Imports follow the layer arrows of DESIGN.md' }, schema: [] },
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

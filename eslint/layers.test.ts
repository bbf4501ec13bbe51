import { ESLint } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import layers from './layers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The layer rule alone: the project's type-aware rules cannot parse files that do not exist.
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.{ts,tsx,js}'], languageOptions: { parser: tseslint.parser }, plugins: { deskpilot: layers }, rules: { 'deskpilot/layers': 'error' } },
  ],
});

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'deskpilot/layers').map((message) => message.message);
}

describe('layer rule', () => {
  it.each([
    ['src/core/actions/x.ts', "import { app } from 'electron';", "core may not import 'electron'"],
    ['src/renderer/src/x.ts', "import { ipcRenderer } from 'electron';", "renderer may not import 'electron'"],
    ['src/renderer/src/x.ts', "import fs from 'node:fs';", "renderer may not import Node built-in 'node:fs'"],
    ['src/shared/x.ts', "import path from 'path';", "shared may not import Node built-in 'path'"],
    ['src/core/ui/x.ts', "import { ax } from '../../../native/macos';", 'core may not import from native'],
    ['src/core/ui/x.ts', "import { main } from '../../cli/main';", 'core may not import from cli'],
    ['src/core/agent/x.ts', "import { startHost } from '../../host/host';", 'core may not import from host'],
    ['src/core/agent/x.ts', "import type { Window } from '../../main/window/window';", 'core may not import from main'],
    ['src/main/window/window.ts', "export * from '../../../native/linux/bus';", 'main may not import from native'],
    ['src/main/controller.ts', "import { ActionEngine } from '../core/actions';", 'main may not import from core'],
    ['src/main/controller.ts', "import { Agent } from '../core/agent/agent';", 'main may not import from core'],
    [
      'src/main/settings/settings.ts',
      "import { OpenAICompatibleProvider } from '../../core/agent/provider/openai-compatible-provider';",
      'main may not import from core',
    ],
    ['src/main/host-link/host-supervisor.ts', "import { startHost } from '../../host/host';", 'main may not import from host'],
    ['src/main/index.ts', "import { main } from '../cli/main';", 'main may not import from cli'],
    ['src/core/provider-config/presets.ts', "import { ownText } from '../ui/text';", 'provider-config may not import from core'],
    ['src/core/provider-config/presets.ts', "import { Agent } from '../agent/agent';", 'provider-config may not import from core'],
    ['src/cli/x.ts', "import { startHost } from '../host/host';", 'cli may not import from host'],
    ['src/cli/x.ts', "import { handle } from '../main/ipc/ipc';", 'cli may not import from main'],
    ['src/mcp/x.ts', "import { main } from '../cli/main';", 'mcp may not import from cli'],
    ['src/mcp/x.ts', "import { startHost } from '../host/host';", 'mcp may not import from host'],
    ['src/mcp/x.ts', "import { app } from 'electron';", "mcp may not import 'electron'"],
    ['src/host/x.ts', "import { app } from 'electron';", "host may not import 'electron'"],
    ['src/host/x.ts', "import { main } from '../cli/main';", 'host may not import from cli'],
    ['src/host/x.ts', "import { Supervisor } from '../main/host-link/host-supervisor';", 'host may not import from main'],
    ['src/renderer/src/x.ts', "import { main } from '../../cli/main';", 'renderer may not import from cli'],
    ['src/renderer/src/x.ts', "import { findNodes } from '../../core/ui/query';", 'renderer may not import from core'],
    ['src/shared/x.ts', "const m = await import('../main/index');", 'shared may not import from main'],
    ['src/shared/x.ts', "import { findNodes } from '../core/ui/query';", 'shared may not import from core'],
    ['src/preload/x.ts', "import { engine } from '../core/actions';", 'preload may not import from core'],
    ['src/preload/x.ts', "import { handle } from '../main/ipc/ipc';", 'preload may not import from main'],
    ['native/linux/x.ts', "import { walk } from '../../src/core/ui/tree-index';", 'native may not import from core'],
    ['test/x.ts', "import { lib } from '../native/macos';", 'other may not import from native'],
    ['src/core/agent/x.ts', "import { runWorkflow } from '../workflows/runner';", 'core may not import from workflows'],
    ['src/core/workflows/x.ts', "import { main } from '../../cli/main';", 'workflows may not import from cli'],
  ])('rejects %s: %s', async (file, code, expected) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it.each([
    ['src/core/platform/darwin/x.ts', "import { lib } from '../../../../native/macos';"],
    ['src/core/actions/x.ts', "import { FakePlatform } from '../platform/fake/fake-platform';\nimport type { UiNode } from '../../shared/ui-node';"],
    ['src/core/provider-config/config.ts', "import { PRESET_INFO } from '../../shared/settings';\nimport { PRESETS } from './presets';"],
    ['src/main/index.ts', "import { app } from 'electron';\nimport type { HostRequest } from '../shared/host-protocol';"],
    [
      'src/main/settings/settings.ts',
      "import { resolveProviderConfig } from '../../core/provider-config/config';\nimport { PRESETS } from '../../core/provider-config/presets';",
    ],
    ['src/core/workflows/x.ts', "import { ActionEngine } from '../actions/engine';\nimport { SafetyGate } from '../agent/safety';"],
    ['src/cli/x.ts', "import { runWorkflow } from '../core/workflows/runner';"],
    ['src/preload/index.ts', "import { contextBridge } from 'electron';\nimport type { UiNode } from '../shared/ui-node';"],
    ['src/renderer/src/x.ts', "import type { UiNode } from '../../shared/ui-node';\nimport React from 'react';"],
    [
      'src/cli/x.ts',
      "import { parseArgs } from 'node:util';\nimport { ActionEngine } from '../core/actions/engine';\nimport { runStdioServer } from '../mcp/stdio';",
    ],
    ['src/mcp/x.ts', "import { findNodes } from '../core/ui/query';\nimport { ValidationError } from '../shared/errors';"],
    ['src/host/x.ts', "import { Agent } from '../core/agent/agent';\nimport type { HostRequest } from '../shared/host-protocol';"],
    ['test/x.ts', "import { main } from '../src/cli/main';\nimport { startHost } from '../src/host/host';"],
  ])('allows %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });

  // Floors inside the core, lowest first: (root) < ui, image, provider-config < platform < screen-text, actions, doc-search < tools < agent, mcp-client < doctor < runtime, workflows.
  // Each arrow, upward (refused) and downward (allowed), between neighbouring floors; then the same floor, the core's own files, tests and a folder with no floor.
  const floorRefusals: [string, string, string][] = [
    ['src/core/clock.ts', "import { serialize } from './ui/serialize';", 'core/(root) may not import from core/ui'],
    ['src/core/ui/x.ts', "import type { Platform } from '../platform/types';", 'core/ui may not import from core/platform'],
    ['src/core/image/x.ts', "import { createPlatform } from '../platform/factory';", 'core/image may not import from core/platform'],
    ['src/core/platform/factory.ts', "import { withVision } from '../screen-text';", 'core/platform may not import from core/screen-text'],
    ['src/core/platform/darwin/screen.ts', "import { decodePng } from '../../screen-text/png';", 'core/platform may not import from core/screen-text'],
    ['src/core/platform/x.ts', "import { ActionEngine } from '../actions/engine';", 'core/platform may not import from core/actions'],
    ['src/core/platform/x.ts', "import { DocsService } from '../doc-search/service';", 'core/platform may not import from core/doc-search'],
    ['src/core/screen-text/x.ts', "import { TOOLS } from '../tools/builtin';", 'core/screen-text may not import from core/tools'],
    ['src/core/actions/x.ts', "import { TOOLS } from '../tools/builtin';", 'core/actions may not import from core/tools'],
    ['src/core/doc-search/endpoint.ts', "import { resolveProviderConfig } from '../agent/provider/config';", 'core/doc-search may not import from core/agent'],
    ['src/core/tools/x.ts', "import { Agent } from '../agent/agent';", 'core/tools may not import from core/agent'],
    ['src/core/tools/x.ts', "import { McpToolbox } from '../mcp-client/toolbox';", 'core/tools may not import from core/mcp-client'],
    ['src/core/agent/x.ts', "import { diagnose } from '../doctor/doctor';", 'core/agent may not import from core/doctor'],
    ['src/core/mcp-client/x.ts', "import { diagnose } from '../doctor/doctor';", 'core/mcp-client may not import from core/doctor'],
    ['src/core/doctor/x.ts', "import { assemblePlatform } from '../runtime/platform';", 'core/doctor may not import from core/runtime'],
    // The same floor: siblings stay apart.
    ['src/core/ui/x.ts', "import { encodePng } from '../image/png';", 'core/ui may not import from core/image'],
    ['src/core/screen-text/x.ts', "import { ActionEngine } from '../actions/engine';", 'core/screen-text may not import from core/actions'],
    ['src/core/actions/x.ts', "import { ScreenText } from '../screen-text/screen-text';", 'core/actions may not import from core/screen-text'],
    ['src/core/doc-search/x.ts', "import { ActionEngine } from '../actions';", 'core/doc-search may not import from core/actions'],
    ['src/core/agent/x.ts', "import { McpToolbox } from '../mcp-client/toolbox';", 'core/agent may not import from core/mcp-client'],
    ['src/core/mcp-client/x.ts', "import { Agent } from '../agent';", 'core/mcp-client may not import from core/agent'],
    ['src/core/runtime/x.ts', "import { runWorkflow } from '../workflows/runner';", 'core may not import from workflows'],
    ['src/core/newfolder/x.ts', "import { walk } from '../ui/tree-index';", 'core/newfolder has no floor'],
  ];
  it.each(floorRefusals)('keeps floors inside the core: rejects %s: %s', async (file, code, expected) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it.each([
    ['src/core/ui/x.ts', "import { clock } from '../clock';"],
    ['src/core/image/x.ts', "import { systemClock } from '../clock';"],
    ['src/core/platform/darwin/screen.ts', "import { decodePng } from '../../image/png';\nimport { walk } from '../../ui/tree-index';"],
    ['src/core/screen-text/x.ts', "import type { Platform } from '../platform/types';\nimport { encodePng } from '../image/png';"],
    ['src/core/actions/x.ts', "import type { Platform } from '../platform/types';"],
    ['src/core/doc-search/endpoint.ts', "import { resolveProviderConfig } from '../provider-config/config';\nimport { dataDir } from '../platform/data-dir';"],
    [
      'src/core/tools/x.ts',
      "import { ActionEngine } from '../actions/engine';\nimport { fitPixels } from '../image/scale';\nimport { DocsService } from '../doc-search/service';\nimport { ScreenText } from '../screen-text';",
    ],
    ['src/core/agent/x.ts', "import { TOOLS } from '../tools/builtin';"],
    ['src/core/mcp-client/x.ts', "import type { ToolResult } from '../tools/types';"],
    ['src/core/doctor/x.ts', "import { Agent } from '../agent';\nimport { McpToolbox } from '../mcp-client/toolbox';"],
    [
      'src/core/runtime/x.ts',
      "import { createPlatform } from '../platform/factory';\nimport { withVision } from '../screen-text';\nimport { diagnose } from '../doctor/doctor';",
    ],
    ['src/core/workflows/x.ts', "import { Agent } from '../agent';\nimport { diagnose } from '../doctor/doctor';"],
    // A test assembles its subject from higher floors (a fake platform and engine under a ui test).
    ['src/core/ui/x.test.ts', "import { FakePlatform } from '../platform/fake/fake-platform';\nimport { ActionEngine } from '../actions/engine';"],
  ])('keeps floors inside the core: allows %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});

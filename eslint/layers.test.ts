import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === 'deskpilot/layers').map((message) => message.message);
}

describe('layer rule', () => {
  it.each([
    ['src/main/core/actions/x.ts', "import { app } from 'electron';", "core may not import 'electron'"],
    ['src/renderer/src/x.ts', "import { ipcRenderer } from 'electron';", "renderer may not import 'electron'"],
    ['src/renderer/src/x.ts', "import fs from 'node:fs';", "renderer may not import Node built-in 'node:fs'"],
    ['src/shared/x.ts', "import path from 'path';", "shared may not import Node built-in 'path'"],
    ['src/main/core/ui/x.ts', "import { ax } from '../../../../native/macos';", 'core may not import from native'],
    ['src/main/window.ts', "export * from '../../native/linux/bus';", 'main may not import from native'],
    ['src/renderer/src/x.ts', "import { main } from '../../main/core/cli/main';", 'renderer may not import from core'],
    ['src/shared/x.ts', "const m = await import('../main/index');", 'shared may not import from main'],
    ['src/preload/x.ts', "import { engine } from '../main/core/actions';", 'preload may not import from core'],
    ['native/linux/x.ts', "import { walk } from '../../src/main/core/ui/tree-index';", 'native may not import from core'],
    ['test/x.ts', "import { lib } from '../native/macos';", 'other may not import from native'],
  ])('rejects %s: %s', async (file, code, expected) => {
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });

  it.each([
    ['src/main/core/platform/darwin/x.ts', "import { lib } from '../../../../../native/macos';"],
    ['src/main/index.ts', "import { app } from 'electron';\nimport { ActionEngine } from './core/actions';"],
    ['src/preload/index.ts', "import { contextBridge } from 'electron';\nimport type { UiNode } from '../shared/ui-node';"],
    ['src/renderer/src/x.ts', "import type { UiNode } from '../../shared/ui-node';\nimport React from 'react';"],
    ['src/main/core/cli/x.ts', "import { parseArgs } from 'node:util';"],
  ])('allows %s', async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});

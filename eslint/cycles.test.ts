import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dpdm = path.join(root, 'node_modules/.bin/dpdm');
const run = promisify(execFile);

/** The same flags as `npm run lint:cycles`, on the given files. */
async function cycles(pattern: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(dpdm, ['--no-tree', '--no-warning', '--exit-code', 'circular:1', pattern], { cwd: root });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, output: failed.stdout };
  }
}

describe('the import-circle check', () => {
  it('fails on a circle made only of type imports', async () => {
    const result = await cycles('eslint/fixtures/type-cycle/*.ts');
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/order\.ts -> eslint\/fixtures\/type-cycle\/customer\.ts|customer\.ts -> eslint\/fixtures\/type-cycle\/order\.ts/);
  });
});

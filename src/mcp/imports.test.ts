import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('the MCP server’s imports', () => {
  // The CLI module pulls in `ask` and the model provider, which a server that only reads and acts does not need.
  it('never imports the CLI', () => {
    const files = readdirSync(here, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect(readFileSync(path.join(here, file), 'utf8'), file).not.toMatch(/from '(\.\.\/)+cli\//);
  });
});

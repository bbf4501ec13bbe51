#!/usr/bin/env node
// The CLI and MCP server run the TypeScript core directly through tsx, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  write: (text) => process.stdout.write(text),
  env: process.env,
});

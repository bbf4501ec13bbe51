#!/usr/bin/env node
// Runs the CLI (and `deskpilot mcp`) from out/cli, built ahead of time by `npm install`, when
// that build is at least as new as every source file. Otherwise, as while editing the code,
// it runs the TypeScript through tsx, which costs about half a second of start-up.
import { readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// V8's compiled code for the CLI's modules and its npm packages, kept on disk (in the OS's temp
// folder, or NODE_COMPILE_CACHE) and reused by the next start: about a quarter less CPU per
// command. Node 22.1 and later; an older Node just compiles as before.
module.enableCompileCache?.();

const root = fileURLToPath(new URL('..', import.meta.url));
const built = `${root}out/cli/main.js`;

/** Tests and READMEs are never built into out/cli, so editing one leaves the build fresh (and the check is a third cheaper). */
const unbuilt = (name) => name.endsWith('.test.ts') || name.endsWith('.md');

/** The newest modification time under these folders, in ms. */
function newest(folders) {
  let latest = 0;
  for (const folder of folders) {
    for (const entry of readdirSync(`${root}${folder}`, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && !unbuilt(entry.name)) latest = Math.max(latest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
    }
  }
  return latest;
}

function freshBuild() {
  try {
    return process.env['DESKPILOT_FROM_SOURCE'] === undefined && statSync(built).mtimeMs >= newest(['src/cli', 'src/core', 'src/mcp', 'src/shared', 'native']);
  } catch {
    return false;
  }
}

let main;
if (freshBuild()) {
  ({ main } = await import(built));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  write: (text) => process.stdout.write(text),
  env: process.env,
});

/**
 * How tests start misbehaving-server.ts: Node runs the TypeScript itself, its types stripped
 * (Node ≥ 22.6; the flag is the default from 22.18), not through tsx, whose loader cost about
 * 0.7 s of CPU at each of the server's starts. The file uses only syntax that strips away.
 */
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./misbehaving-server.ts', import.meta.url));

export const MISBEHAVING_SERVER = { command: process.execPath, args: ['--experimental-strip-types', script] };

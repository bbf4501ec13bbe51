/**
 * The worker thread documents are parsed in (see reader.ts). It takes one file at a time and
 * answers with the parsed document or the reason it was skipped; time and memory are bounded
 * from outside, by the deadline and resourceLimits the reader gives it.
 */
import { parentPort } from 'node:worker_threads';
import { parseFile, Skipped } from './index';
import type { ParseLimits } from './limits';
import type { ParseReply, ParseRequest } from './protocol';

const port = parentPort;
if (port !== null) {
  port.on('message', (request: ParseRequest) => {
    void answer(request).then((reply) => port.postMessage(reply));
  });
  port.postMessage({ ready: true } satisfies ParseReply);
}

async function answer({ id, file, bytes, limits }: ParseRequest): Promise<ParseReply> {
  try {
    return { id, doc: await parseFile(file, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits satisfies ParseLimits) };
  } catch (error) {
    return { id, skipped: error instanceof Skipped ? error.reason : `could not be parsed: ${String((error as Error).message).slice(0, 200)}` };
  }
}
